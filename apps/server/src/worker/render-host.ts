import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type {
  HostReply,
  HostRequest,
  RenderHostOptions,
  RenderTask,
  RenderWorkerData,
  ThreadStarted,
  ThreadTask,
} from './render-task.js';

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
    faultAttempts: options.faultAttempts,
    warmUpRenders: options.warmUpRenders,
    art: options.art,
  } satisfies RenderWorkerData,
});
// A worker thread that dies mid-task rejects that task (the job runner retries it); the pool replaces it.
piscina.on('error', (error: unknown) => reply({ kind: 'thread-failed', message: String(error) }));

const failed = (id: number, error: unknown): HostReply => ({
  kind: 'failed',
  id,
  message: error instanceof Error ? error.message : String(error),
});

/** Starts the deadline of each render whose thread has begun it, by request id. */
const deadlines = new Map<number, () => void>();
piscina.on('message', (message: ThreadStarted) => deadlines.get(message.started)?.());

/**
 * A render with its deadline, counted from when its thread begins it: a wait for a thread (a replacement
 * loading its models) is not the render's fault. Aborting the task makes piscina terminate its thread
 * (nothing else stops a render that never yields) and start another.
 */
async function render(id: number, task: RenderTask): Promise<HostReply> {
  const stop = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  deadlines.set(id, () => {
    timer = setTimeout(() => stop.abort(), options.renderTimeoutMs);
  });
  try {
    const outcome = await piscina.run({ ...task, id } satisfies ThreadTask, { signal: stop.signal });
    return { kind: 'rendered', id, outcome };
  } catch (error) {
    return stop.signal.aborted ? { kind: 'timed-out', id } : failed(id, error);
  } finally {
    clearTimeout(timer);
    deadlines.delete(id);
  }
}

process.on('message', (message: HostRequest) => {
  const { id } = message;
  if (message.kind === 'render') {
    render(id, message.task).then(reply);
    return;
  }
  piscina.run(null, { name: 'warmUp' }).then(
    () => reply({ kind: 'warm', id }),
    (error: unknown) => reply(failed(id, error)),
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
