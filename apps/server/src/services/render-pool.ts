import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { HostReply, HostRequest, RenderHostOptions, RenderOutcome, RenderTask } from '../worker/render-task.js';

export interface RenderPool {
  render(task: RenderTask): Promise<RenderOutcome>;
  /** Resolves when the worker threads have loaded the engine's models and made their warm-up renders. */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

/** A render stopped at the deadline: its worker thread was terminated and replaced. */
export class RenderTimeoutError extends Error {
  override name = 'RenderTimeoutError';

  constructor(readonly timeoutMs: number) {
    super(`The render passed its deadline of ${timeoutMs / 1000} s and was stopped`);
  }
}

/**
 * The render process runs compiled JavaScript from dist even when the server itself runs from source
 * (tests), so the engine loads exactly as it does in production.
 */
function renderHostFile(): string {
  const here = fileURLToPath(new URL('../worker/render-host.js', import.meta.url));
  const compiled = here.replace(/([\\/])src([\\/])worker([\\/])/, '$1dist$2worker$3');
  if (!existsSync(compiled)) {
    throw new Error(`Render process not built: expected ${compiled}. Run \`npx tsc -b\` first.`);
  }
  return compiled;
}

/**
 * With V8's default heap sizes a worker thread makes a full garbage collection (and keeps V8's helper
 * threads busy with it) after almost every render: 87 in 110 renders. Starting the old generation at
 * 64 MB spaces them out (16 in 110) for 10 % less CPU per render at the same peak memory (measured for
 * issue 14; 128 MB saves little more and keeps 45 MB more resident). After each full collection V8 lets
 * the heap grow by a factor it picks from its own speed, here about 1.7 over the 36 MB a thread keeps
 * live: the next collection came two or three renders later and found nothing to free. A fixed factor of
 * 2 halves them (14 → 8 in 45 renders) for 7–11 % less CPU per render and about 10 MB more resident;
 * 4 saves no more.
 */
const RENDER_V8_FLAGS = ['--initial-old-space-size=64', '--heap-growing-percent=100'];

/** How long a closing render process may take to finish its renders before it is killed. */
const CLOSE_TIMEOUT_MS = 60_000;

interface Pending {
  done(reply: HostReply): void;
  fail(error: Error): void;
}

/**
 * The worker pool (piscina, one thread per configured worker) lives in a child process of its own, so
 * the process that answers HTTP never holds the face models. A render process that dies (a native crash,
 * the out-of-memory killer) fails only its running renders, which the job runner retries; the next
 * render starts a new one.
 */
export function createRenderPool(options: { log: FastifyBaseLogger } & RenderHostOptions): RenderPool {
  const hostFile = renderHostFile();
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let child: ChildProcess | undefined;
  let closing: Promise<void> | undefined;

  const start = (): ChildProcess => {
    const hostOptions: RenderHostOptions = {
      threads: options.threads,
      renderTimeoutMs: options.renderTimeoutMs,
      faultAttempts: options.faultAttempts,
      warmUpRenders: options.warmUpRenders,
      art: options.art,
    };
    // Structured clone carries the photo and the artwork as bytes; no execArgv of the parent (test loaders),
    // only the heap setting above.
    const started = fork(hostFile, [JSON.stringify(hostOptions)], {
      serialization: 'advanced',
      execArgv: RENDER_V8_FLAGS,
    });
    started.on('message', (reply: HostReply) => {
      if (reply.kind === 'thread-failed') {
        options.log.warn({ err: new Error(reply.message) }, 'render worker thread failed');
        return;
      }
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      waiting?.done(reply);
    });
    started.on('exit', (code, signal) => {
      if (child === started) child = undefined;
      if (!closing) options.log.error({ code, signal }, 'render process exited; the next render starts a new one');
      const lost = new Error(`The render process exited (${signal ?? `code ${code}`})`);
      for (const waiting of pending.values()) waiting.fail(lost);
      pending.clear();
    });
    return started;
  };

  const send = (request: (id: number) => HostRequest): Promise<HostReply> => {
    if (closing) return Promise.reject(new Error('The render pool is closed'));
    child ??= start();
    const id = nextId++;
    const target = child;
    return new Promise((done, fail) => {
      pending.set(id, { done, fail });
      target.send(request(id), (error) => {
        if (!error || !pending.delete(id)) return;
        fail(error);
      });
    });
  };

  return {
    async render(task) {
      const reply = await send((id) => ({ kind: 'render', id, task }));
      if (reply.kind === 'rendered') return reply.outcome;
      if (reply.kind === 'timed-out') throw new RenderTimeoutError(options.renderTimeoutMs);
      throw new Error(reply.kind === 'failed' ? reply.message : `unexpected reply ${reply.kind}`);
    },
    async warmUp() {
      const replies = await Promise.all(
        Array.from({ length: options.threads }, () => send((id) => ({ kind: 'warm-up', id }))),
      );
      const failed = replies.find((reply) => reply.kind === 'failed');
      if (failed?.kind === 'failed') throw new Error(failed.message);
    },
    close() {
      closing ??= new Promise<void>((done) => {
        const running = child;
        if (!running || running.exitCode !== null || running.signalCode !== null) return done();
        const timeout = setTimeout(() => running.kill('SIGKILL'), CLOSE_TIMEOUT_MS);
        running.once('exit', () => {
          clearTimeout(timeout);
          done();
        });
        // Closing the channel tells the render process to finish its renders and leave.
        running.disconnect();
      });
      return closing;
    },
  };
}
