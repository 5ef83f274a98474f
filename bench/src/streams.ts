import { request } from 'node:http';
import type { RunningServer } from '../../e2e/support/server-process.js';

/**
 * Opens `count` raw event-stream connections spread over `jobIds` (500 at a time) and resolves once
 * every one has its first message, with a function that closes them all.
 */
function openStreams(url: string, jobIds: string[], count: number): Promise<() => void> {
  const closers: (() => void)[] = [];
  let opened = 0;
  return new Promise((done, fail) => {
    const openOne = (i: number) => {
      const req = request(`${url}/api/queue/stream/${jobIds[i % jobIds.length]}`, { agent: false }, (res) => {
        if (res.statusCode !== 200) return fail(new Error(`Stream answered ${res.statusCode}`));
        res.on('error', () => {
          // Our own destroy() at the end resets the connection; a failure before the first message rejects.
        });
        res.once('data', () => {
          opened += 1;
          if (opened === count) done(() => closers.forEach((close) => void close()));
        });
      });
      req.on('error', fail);
      req.end();
      closers.push(() => req.destroy());
    };
    let next = 0;
    const batch = () => {
      for (let k = 0; k < 500 && next < count; k++) openOne(next++);
      if (next < count) setTimeout(batch, 50);
    };
    batch();
  });
}

export interface StreamMemory {
  /** RSS of the HTTP process before the streams, and the highest while they were held, in MB. */
  before: number;
  with: number;
  /** The same two readings of its render process (embedded mode; 0 for an API-only process). */
  renderBefore: number;
  renderWith: number;
}

/**
 * Holds `count` streams on `jobIds` for 10 s while the server keeps working (a worker rendering moves
 * the queue, so every stream gets position updates) and reports the highest memory seen.
 */
export async function holdStreams(server: RunningServer, jobIds: string[], count: number): Promise<StreamMemory> {
  const memory = { before: server.rssMb(), with: 0, renderBefore: server.childRssMb(), renderWith: 0 };
  const closeStreams = await openStreams(server.url, jobIds, count);
  for (let second = 0; second < 10; second++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    memory.with = Math.max(memory.with, server.rssMb());
    memory.renderWith = Math.max(memory.renderWith, server.childRssMb());
  }
  closeStreams();
  return memory;
}
