import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';

/**
 * Reads rows straight from a test server's database, whichever mode (what was stored, not what the API
 * says): the SQLite file under its data directory, or its PostgreSQL database.
 */
export async function readRows(
  server: { dataDir: string },
  env: Record<string, string>,
  query: string,
): Promise<Record<string, unknown>[]> {
  if (env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      return (await client.query(query)).rows;
    } finally {
      await client.end();
    }
  }
  const db = new Database(path.join(server.dataDir, 'selfie-mosaic.sqlite'), { readonly: true });
  try {
    return db.prepare(query).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}
