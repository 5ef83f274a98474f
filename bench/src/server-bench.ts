import { readFile } from 'node:fs/promises';
import autocannon from 'autocannon';
import { EventSource } from 'eventsource';
import { facePhoto } from '../../e2e/support/fixtures.js';
import { type RunningServer, startServer } from '../../e2e/support/server-process.js';
import { OPEN_LIMITS } from './open-limits.js';
import { machine, median, percentile, table, writeSection } from './report.js';
import { holdStreams } from './streams.js';
import { Visitor } from './visitor.js';

async function waitForStatus(url: string, jobId: string, wanted: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const body = (await (await fetch(`${url}/api/queue/position/${jobId}`)).json()) as { status: string };
    if (body.status === wanted) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Job ${jobId} did not reach ${wanted}`);
}

async function submit(visitor: Visitor, photo: Buffer, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { status, jobId } = await visitor.upload(photo);
    if (status !== 202 || !jobId) throw new Error(`Upload answered ${status}`);
    ids.push(jobId);
  }
  return ids;
}

/**
 * Polls as the web app does (a browser that already holds its XSRF cookie). Besides the rate autocannon
 * saw, it reports what one core of the server sustains: requests answered per CPU-second the server used,
 * which does not depend on how much of the shared machine the load generator got.
 */
async function pollThroughput(server: RunningServer, jobId: string, cookie: string) {
  const cpuBefore = server.cpuSeconds();
  const result = await autocannon({
    url: `${server.url}/api/queue/position/${jobId}`,
    connections: 64,
    duration: 10,
    headers: { cookie },
  });
  const cpu = server.cpuSeconds() - cpuBefore;
  return {
    rps: result.requests.average,
    perCore: result.requests.total / cpu,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
  };
}

async function followWithEventSource(url: string, jobIds: string[], clientsPerJob: number) {
  const started = performance.now();
  const finished: number[] = [];
  await Promise.all(
    jobIds.flatMap((jobId) =>
      Array.from(
        { length: clientsPerJob },
        () =>
          new Promise<void>((done, fail) => {
            const source = new EventSource(`${url}/api/queue/stream/${jobId}`);
            source.onmessage = (event) => {
              const { status } = JSON.parse(event.data) as { status: string };
              if (status === 'completed' || status === 'failed') {
                finished.push(performance.now() - started);
                source.close();
                done();
              }
            };
            source.onerror = () => {
              source.close();
              fail(new Error('An EventSource client lost its stream'));
            };
          }),
      ),
    ),
  );
  return { clients: finished.length, lastMs: Math.max(...finished) };
}

async function main() {
  const photo = await readFile(await facePhoto());

  // Polling on one core: the main thread answers, autocannon runs on the other core, workers idle.
  let server = await startServer({ ...OPEN_LIMITS, WORKERS: '1' });
  const poller = new Visitor(server.url);
  await poller.start();
  const [doneJob] = await submit(poller, photo, 1);
  await waitForStatus(server.url, doneJob as string, 'completed');
  const pollDone = await pollThroughput(server, doneJob as string, poller.cookie);

  // Streams held: 200 jobs waiting behind one worker, 10,000 streams spread over the last 100.
  const queued = await submit(poller, photo, 200);
  const pollQueued = await pollThroughput(server, queued.at(-1) as string, poller.cookie);
  const streams = 10_000;
  const memory = await holdStreams(server, queued.slice(-100), streams);
  await server.stop();

  // Uploads accepted while two workers render, and a few hundred EventSource clients following jobs.
  server = await startServer({ ...OPEN_LIMITS, WORKERS: '2' });
  const visitor = new Visitor(server.url);
  await visitor.start();
  const latencies: number[] = [];
  const ids: string[] = [];
  for (let i = 0; i < 40; i++) {
    const { status, ms, jobId } = await visitor.upload(photo);
    if (status !== 202 || !jobId) throw new Error(`Upload answered ${status}`);
    latencies.push(ms);
    ids.push(jobId);
  }
  const followers = await followWithEventSource(server.url, ids.slice(-30), 10);
  await server.stop();

  const body = [
    '## Server (embedded mode)',
    '',
    machine(),
    '',
    table(
      ['measure', 'figure', 'target'],
      [
        [
          'polls answered per CPU-second of the server main thread (one core), finished job',
          Math.round(pollDone.perCore),
          '≥ 10,000',
        ],
        ['polls/s autocannon saw, finished job (64 connections, 10 s, shared 2 cores)', Math.round(pollDone.rps), ''],
        ['poll latency p50 / p99, finished job', `${pollDone.p50} ms / ${pollDone.p99} ms`, ''],
        [
          'polls per main-thread CPU-second, queued job with 200 waiting and a worker rendering',
          Math.round(pollQueued.perCore),
          '',
        ],
        ['event streams held open', streams.toLocaleString('en'), '10,000'],
        [
          'HTTP process memory (RSS: API, queue, SQLite, the streams) before / with the streams (highest in 10 s)',
          `${memory.before.toFixed(0)} MB / ${memory.with.toFixed(0)} MB`,
          '< 300 MB',
        ],
        [
          'render process memory (RSS: one worker thread with its face models), same moments',
          `${memory.renderBefore.toFixed(0)} MB / ${memory.renderWith.toFixed(0)} MB`,
          '≤ 400 MB per worker',
        ],
        ['memory per open stream', `${(((memory.with - memory.before) * 1024) / streams).toFixed(1)} KB`, ''],
        [
          'upload accepted (202), median / p95 of 40, two workers rendering',
          `${median(latencies).toFixed(1)} ms / ${percentile(latencies, 95).toFixed(1)} ms`,
          '≤ 20 ms median',
        ],
        ['EventSource clients that saw their job finish', `${followers.clients} of 300`, 'all'],
      ],
    ),
    '',
    `Non-2xx answers during the poll runs: ${pollDone.non2xx + pollQueued.non2xx}. Embedded mode runs as two`,
    'processes: the HTTP process and its render process (piscina worker threads, the engine and its models),',
    "so the streams' cost is the HTTP process's difference. The worker kept rendering the 200 waiting jobs",
    'while the streams were open, so every stream also received its position updates.',
  ].join('\n');
  writeSection('server', body);
  console.log(body);
}

await main();
