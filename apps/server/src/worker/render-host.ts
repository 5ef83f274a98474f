import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { HostReply, HostRequest, RenderHostOptions, RenderWorkerData } from './render-task.js';

/**
 * The render process: a child of the HTTP process that owns the worker threads and their face models.
 * Keeping them out of the HTTP process keeps that process small (it holds thousands of open streams)
 * and means a native crash or an out-of-memory kill in the engine cannot take the API down with it.
 */
const options = JSON.parse(process.argv[2] ?? '{}') as RenderHostOptions;

function reply(message: HostReply): void {
  // The parent may already be gone (it was killed): nothing is listening for the answer then.
  if (process.connected) process.send?.(message);
}

const piscina = new Piscina({
  filename: fileURLToPath(new URL('./render-worker.js', import.meta.url)),
  minThreads: options.threads,
  maxThreads: options.threads,
  idleTimeout: Number.POSITIVE_INFINITY,
  workerData: {
    crashAttempts: options.crashAttempts,
    warmUpRenders: options.warmUpRenders,
    art: options.art,
  } satisfies RenderWorkerData,
});
// A worker thread that dies mid-task rejects that task (the job runner retries it); the pool replaces it.
piscina.on('error', (error: unknown) => reply({ kind: 'thread-failed', message: String(error) }));

process.on('message', (message: HostRequest) => {
  const { id } = message;
  const task = message.kind === 'warm-up' ? piscina.run(null, { name: 'warmUp' }) : piscina.run(message.task);
  task.then(
    (outcome) => reply(message.kind === 'warm-up' ? { kind: 'warm', id } : { kind: 'rendered', id, outcome }),
    (error: unknown) => reply({ kind: 'failed', id, message: error instanceof Error ? error.message : String(error) }),
  );
});

// A Ctrl-C in a terminal signals the whole process group: the HTTP process decides when renders stop
// (it lets running jobs finish), and its closing the channel is what ends this process.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});

// The HTTP process closed the channel (shutdown) or died: finish the running renders, then leave.
process.on('disconnect', () => {
  piscina.close().finally(() => process.exit(0));
});
