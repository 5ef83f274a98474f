import { randomUUID } from 'node:crypto';
import { linkSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createBackend } from '../../apps/server/src/services/create-backend.js';
import { createDatabase, startPostgres, startRedis } from '../../apps/server/src/test/services.js';
import { facePhoto } from '../../e2e/support/fixtures.js';
import { type RunningServer, startServer } from '../../e2e/support/server-process.js';
import { OPEN_LIMITS } from './open-limits.js';
import { machine, table, writeSection } from './report.js';
import { holdStreams } from './streams.js';
import { Visitor } from './visitor.js';

/**
 * Scale mode against embedded mode on one 2-core machine: render throughput with 1 and 2 worker
 * processes (threads in embedded mode), poll latency with 10,000 jobs waiting, and the memory of an
 * API-only process holding 10,000 event streams. Redis and PostgreSQL are started for the run.
 */

const JOBS = 60;
const WAITING = 10_000;
const STREAMS = 10_000;

interface Shared {
  redisUrl: string;
  postgresUrl: string;
}

async function scaleEnv(shared: Shared, storageDir: string): Promise<Record<string, string>> {
  return {
    ...OPEN_LIMITS,
    REDIS_URL: shared.redisUrl,
    DATABASE_URL: await createDatabase(shared.postgresUrl),
    QUEUE_NAME: `bench-${randomUUID()}`,
    STORAGE_DIR: storageDir,
  };
}

async function waitAll(url: string, ids: string[]): Promise<void> {
  const pending = new Set(ids);
  while (pending.size > 0) {
    for (const id of [...pending]) {
      const body = (await (await fetch(`${url}/api/queue/position/${id}`)).json()) as { status: string };
      if (body.status === 'completed' || body.status === 'failed') pending.delete(id);
    }
    if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Uploads JOBS photos as fast as the API accepts them and times until the last artwork is done. */
async function throughput(api: RunningServer, photo: Buffer): Promise<number> {
  const visitor = new Visitor(api.url);
  await visitor.start();
  const started = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < JOBS; i++) {
    const { status, jobId } = await visitor.upload(photo);
    if (status !== 202 || !jobId) throw new Error(`Upload answered ${status}`);
    ids.push(jobId);
  }
  await waitAll(api.url, ids);
  return JOBS / ((performance.now() - started) / 1000);
}

async function scaleThroughput(shared: Shared, photo: Buffer, workers: number): Promise<number> {
  const storageDir = mkdtempSync(join(tmpdir(), 'selfie-mosaic-bench-files-'));
  const env = await scaleEnv(shared, storageDir);
  const procs = [await startServer({ ...env, ROLE: 'api' })];
  try {
    for (let i = 0; i < workers; i++) procs.push(await startServer({ ...env, ROLE: 'worker', WORKERS: '1' }));
    return await throughput(procs[0] as RunningServer, photo);
  } finally {
    for (const proc of procs) await proc.stop();
    rmSync(storageDir, { recursive: true, force: true });
  }
}

async function embeddedThroughput(photo: Buffer, workers: number): Promise<number> {
  const server = await startServer({ ...OPEN_LIMITS, WORKERS: String(workers) });
  try {
    return await throughput(server, photo);
  } finally {
    await server.stop();
  }
}

/**
 * Puts WAITING jobs in the queue through the backend itself (uploading them would take minutes): each
 * gets a stored photo (hard links of one file) and a queue entry, exactly as an upload leaves them.
 */
async function prefill(options: Parameters<typeof createBackend>[0], photoFile: string): Promise<string[]> {
  const backend = await createBackend(options);
  const photoDir = join(options.storage?.kind === 'directory' ? options.storage.dir : options.dataDir, 'photos');
  const sessionId = 'session-1700000000000-bench001';
  const consent = await backend.consents.add({
    sessionId,
    countryIso: 'de',
    language: 'de',
    questionAnswer: 'yes',
    consentGiven: true,
  });
  const ids: string[] = [];
  for (let from = 0; from < WAITING; from += 250) {
    const batch = Array.from({ length: Math.min(250, WAITING - from) }, () => randomUUID());
    for (const id of batch) linkSync(photoFile, join(photoDir, id));
    await Promise.all(
      batch.map((id) => backend.ledger.accepted({ id, sessionId, blacklabel: false, photoKey: id }, consent)),
    );
    for (const id of batch) {
      await backend.ledger.queued(id);
      await backend.queue.add(id);
    }
    ids.push(...batch);
  }
  await backend.queue.close();
  await backend.close();
  return ids;
}

async function pollLatency(url: string, jobId: string) {
  const first = (await (await fetch(`${url}/api/queue/position/${jobId}`)).json()) as { queue_position: number };
  const result = await autocannon({ url: `${url}/api/queue/position/${jobId}`, connections: 32, duration: 10 });
  return {
    position: first.queue_position,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors,
  };
}

async function main() {
  const photoFile = await facePhoto();
  const photo = await readFile(photoFile);
  const [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
  const shared = { redisUrl: redis.url, postgresUrl: postgres.url };
  try {
    console.error('scale bench: render rates…');
    const rates = {
      embedded1: await embeddedThroughput(photo, 1),
      embedded2: await embeddedThroughput(photo, 2),
      scale1: await scaleThroughput(shared, photo, 1),
      scale2: await scaleThroughput(shared, photo, 2),
    };

    // Embedded: the HTTP process and its render process, one render thread working through the 10,000.
    console.error('scale bench: embedded with 10,000 waiting…');
    const embeddedDir = mkdtempSync(join(tmpdir(), 'selfie-mosaic-bench-embedded-'));
    const embeddedIds = await prefill({ dataDir: embeddedDir }, photoFile);
    const embedded = await startServer({ ...OPEN_LIMITS, WORKERS: '1', DATA_DIR: embeddedDir });
    const embeddedPoll = await pollLatency(embedded.url, embeddedIds.at(-1) as string);
    console.error('scale bench: embedded streams…');
    const embeddedRss = await holdStreams(embedded, embeddedIds.slice(-100), STREAMS);
    await embedded.stop();
    rmSync(embeddedDir, { recursive: true, force: true });

    // Scale: an API-only process answers; 10,000 wait in BullMQ, records in PostgreSQL.
    console.error('scale bench: scale with 10,000 waiting…');
    const storageDir = mkdtempSync(join(tmpdir(), 'selfie-mosaic-bench-files-'));
    const env = await scaleEnv(shared, storageDir);
    const scaleIds = await prefill(
      {
        dataDir: storageDir,
        storage: { kind: 'directory', dir: storageDir },
        scale: {
          redisUrl: env.REDIS_URL as string,
          databaseUrl: env.DATABASE_URL as string,
          queueName: env.QUEUE_NAME as string,
          lockDurationMs: 30_000,
        },
      },
      photoFile,
    );
    const api = await startServer({ ...env, ROLE: 'api' });
    const scalePoll = await pollLatency(api.url, scaleIds.at(-1) as string);
    console.error('scale bench: ROLE=api streams…');
    const scaleRss = await holdStreams(api, scaleIds.slice(-100), STREAMS);
    await api.stop();
    rmSync(storageDir, { recursive: true, force: true });

    const rate = (n: number) => `${n.toFixed(2)} jobs/s`;
    const body = [
      '## Scale mode against embedded mode (`bench/src/scale-bench.ts`)',
      '',
      `${machine()}. Redis and PostgreSQL started by the benchmark on the same machine. Render rate: ${JOBS} uploads of a real`,
      'selfie, timed from the first upload to the last finished artwork; one render thread per worker process',
      '(scale) or per configured worker (embedded). Polls: autocannon, 32 connections, 10 s, on the job at',
      `position ${WAITING.toLocaleString('en')} (embedded: its one render thread keeps working meanwhile; scale: an API-only process).`,
      '',
      table(
        ['measure', 'embedded', 'scale (BullMQ + PostgreSQL)'],
        [
          ['render rate, 1 worker', rate(rates.embedded1), rate(rates.scale1)],
          ['render rate, 2 workers', rate(rates.embedded2), rate(rates.scale2)],
          [
            'scaling ratio 2 : 1',
            `${(rates.embedded2 / rates.embedded1).toFixed(2)}×`,
            `${(rates.scale2 / rates.scale1).toFixed(2)}×`,
          ],
          [
            `poll with ${WAITING.toLocaleString('en')} waiting: position answered`,
            embeddedPoll.position.toLocaleString('en'),
            scalePoll.position.toLocaleString('en'),
          ],
          [
            'poll latency p50 / p99',
            `${embeddedPoll.p50} ms / ${embeddedPoll.p99} ms`,
            `${scalePoll.p50} ms / ${scalePoll.p99} ms`,
          ],
          ['polls/s (one process)', embeddedPoll.rps.toLocaleString('en'), scalePoll.rps.toLocaleString('en')],
          [
            `memory (RSS) of the process answering HTTP, before / with ${STREAMS.toLocaleString('en')} open streams (highest in 10 s)`,
            `${embeddedRss.before.toFixed(0)} MB / ${embeddedRss.with.toFixed(0)} MB (HTTP process; its render process ${embeddedRss.renderWith.toFixed(0)} MB)`,
            `${scaleRss.before.toFixed(0)} MB / ${scaleRss.with.toFixed(0)} MB (ROLE=api process)`,
          ],
        ],
      ),
      '',
      `Poll errors or non-2xx: embedded ${embeddedPoll.errors}, scale ${scalePoll.errors}. Two cores serve every`,
      'process here (API, workers, Redis, PostgreSQL and the load generator), so the 2-worker rate is bounded by',
      'the machine, not by the queue: on separate machines each worker process adds its own cores.',
    ].join('\n');
    writeSection('scale', body);
    console.log(body);
  } finally {
    await Promise.all([redis.stop(), postgres.stop()]);
  }
}

await main();
