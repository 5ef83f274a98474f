import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer, type TestServer } from '../test/harness.js';
import { pathOnly } from './analytics.js';

describe('pathOnly', () => {
  it('keeps the path and drops the query string and the fragment', () => {
    expect(pathOnly('/de/de/start')).toBe('/de/de/start');
    expect(pathOnly('/de/de/result?job=abc&email=a@b.example')).toBe('/de/de/result');
    expect(pathOnly('/fr/fr/start#token=secret')).toBe('/fr/fr/start');
    expect(pathOnly('/x#frag?not-a-query')).toBe('/x');
    expect(pathOnly('/?q=1')).toBe('/');
  });
});

describe('POST /api/analytics/pageview', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('stores the page without what a link added to it', async () => {
    const client = await new Client(server.url).init();
    const response = await client.postJson('/api/analytics/pageview', {
      country_iso: 'de',
      language: 'de',
      page_path: '/de/de/result?utm_source=mail&email=visitor@example.com#share-token',
      ip_address: null,
      user_agent: null,
    });
    expect(response.status).toBe(204);
    const db = new Database(path.join(server.dataDir, 'selfie-mosaic.sqlite'), { readonly: true });
    const rows = db.prepare('SELECT page_path FROM pageviews').all();
    db.close();
    expect(rows).toEqual([{ page_path: '/de/de/result' }]);
  });
});
