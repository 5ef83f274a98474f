import { mkdtempSync } from 'node:fs';
import autocannon from 'autocannon';
import { startServer } from './dist/start.js';

const dir = mkdtempSync('/tmp/pb-');
const s = await startServer({
  DATA_DIR: dir,
  WORKERS: '1',
  LOG_LEVEL: 'warn',
  WEB_DIST: '/nonexistent',
  POLL_LIMIT: '10000000',
});
const id = '0b7e4a5c-1d2f-4e3a-9b8c-7d6e5f4a3b2c';
for (const [name, path, headers] of [
  ['healthz', '/healthz', {}],
  ['healthz+cookie', '/healthz', { cookie: 'XSRF-TOKEN=abc' }],
  ['poll404+cookie', `/api/queue/position/${id}`, { cookie: 'XSRF-TOKEN=abc' }],
]) {
  const result = await autocannon({ url: `${s.url}${path}`, connections: 64, duration: 4, headers });
  console.log(name, 'req/s', result.requests.average, 'p50', result.latency.p50);
}
process.exit(0);
