import { JOB_STATUSES } from '@selfie-mosaic/contract';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Backend } from './types.js';

export interface Metrics {
  registry: Registry;
  renderSeconds: Histogram<'outcome'>;
  jobsFinished: Counter<'status'>;
  openStreams: Gauge;
  httpSeconds: Histogram<'method' | 'route' | 'status'>;
}

/**
 * One registry per app instance, so several apps in one test process never share counters.
 * `storageWritable` tells whether storage takes writes (0 while the disk is full or the database refuses).
 */
export function createMetrics(backend: Backend, storageWritable: () => boolean = () => true): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'selfie_mosaic_storage_writable',
    help: '1 while files and records can be written, 0 while writes fail (disk full, read-only, locked)',
    registers: [registry],
    collect() {
      this.set(storageWritable() ? 1 : 0);
    },
  });
  new Gauge({
    name: 'selfie_mosaic_queue_depth',
    help: 'Jobs in the queue by state',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const counts = await backend.queue.counts();
      this.set({ state: 'waiting' }, counts.waiting);
      this.set({ state: 'active' }, counts.active);
    },
  });
  new Gauge({
    name: 'selfie_mosaic_jobs',
    help: 'Stored jobs by status',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const counts = await backend.jobs.countByStatus();
      for (const status of JOB_STATUSES) this.set({ status }, counts[status]);
    },
  });
  return {
    registry,
    renderSeconds: new Histogram({
      name: 'selfie_mosaic_render_seconds',
      help: 'Time to render one artwork, by outcome',
      labelNames: ['outcome'],
      buckets: [0.25, 0.5, 1, 2, 3, 5, 8, 13, 20, 30],
      registers: [registry],
    }),
    jobsFinished: new Counter({
      name: 'selfie_mosaic_jobs_finished_total',
      help: 'Jobs that reached a final status',
      labelNames: ['status'],
      registers: [registry],
    }),
    openStreams: new Gauge({
      name: 'selfie_mosaic_open_streams',
      help: 'Event streams currently open',
      registers: [registry],
    }),
    httpSeconds: new Histogram({
      name: 'selfie_mosaic_http_request_seconds',
      help: 'HTTP request duration by route',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
  };
}
