import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { Piscina } from 'piscina';
import type { RenderOutcome, RenderTask, RenderWorkerData } from '../worker/render-task.js';

export interface RenderPool {
  render(task: RenderTask): Promise<RenderOutcome>;
  /** Resolves when the worker threads have loaded the engine's models. */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The worker runs compiled JavaScript from dist even when the server itself runs from source (tests),
 * so the engine loads exactly as it does in production.
 */
export function renderWorkerFile(): string {
  const here = fileURLToPath(new URL('../worker/render-worker.js', import.meta.url));
  const compiled = here.replace(/([\\/])src([\\/])worker([\\/])/, '$1dist$2worker$3');
  if (!existsSync(compiled)) {
    throw new Error(`Render worker not built: expected ${compiled}. Run \`npx tsc -b\` first.`);
  }
  return compiled;
}

/** One worker thread per configured worker; the job queue never hands the pool more than it has threads. */
export function createRenderPool(options: { threads: number; log: FastifyBaseLogger } & RenderWorkerData): RenderPool {
  const piscina = new Piscina({
    filename: renderWorkerFile(),
    minThreads: options.threads,
    maxThreads: options.threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    workerData: { crashAttempts: options.crashAttempts } satisfies RenderWorkerData,
  });
  // A worker that dies mid-task rejects that task (the job runner retries it); the process carries on.
  piscina.on('error', (err) => options.log.warn({ err }, 'render worker thread failed'));
  return {
    render: (task) => piscina.run(task) as Promise<RenderOutcome>,
    async warmUp() {
      await Promise.all(Array.from({ length: options.threads }, () => piscina.run(null, { name: 'warmUp' })));
    },
    close: () => piscina.close(),
  };
}
