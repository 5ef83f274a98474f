import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobQueue, QueueDelivery } from '../services/types.js';

export interface QueueUnderTest {
  queue: JobQueue;
  /**
   * A new queue on the same backing state, as after a process restart. The old instance is left as it
   * is (possibly mid-delivery), like a process that died.
   */
  reopen(): Promise<JobQueue>;
  close(): Promise<void>;
  /**
   * Embedded: `recover()` at start returns the interrupted job at once. BullMQ: the job comes back when
   * the dead worker's lock expires (its stalled check), reported through `onRecovered`.
   */
  recoversOnReopen: boolean;
  /** How long a redelivery after a dead process may take (BullMQ: lock expiry + stalled check). */
  redeliveryTimeoutMs?: number;
}

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Behaviour every JobQueue adapter must show: FIFO order, positions, retries and surviving restarts. */
export function describeQueueContract(name: string, factory: () => Promise<QueueUnderTest>): void {
  describe(`queue contract: ${name}`, () => {
    let subject: QueueUnderTest;
    beforeEach(async () => {
      subject = await factory();
    });
    afterEach(async () => {
      await subject.close();
    });

    it('reports 1 + the jobs ahead for waiting jobs and 0 for unknown ones', async () => {
      const ids = [randomUUID(), randomUUID(), randomUUID()];
      for (const id of ids) await subject.queue.add(id);
      expect(await Promise.all(ids.map((id) => subject.queue.position(id)))).toEqual([1, 2, 3]);
      expect(await subject.queue.position(randomUUID())).toBe(0);
      expect(await subject.queue.counts()).toEqual({ waiting: 3, active: 0 });
      expect(await subject.queue.positions([ids[2] as string, randomUUID(), ids[0] as string])).toEqual([3, 0, 1]);
      expect(await subject.queue.positions([])).toEqual([]);
    });

    it('gives out waiting places only up to the limit, counting waiting jobs, even when asked at once', async () => {
      await subject.queue.add(randomUUID());
      const asked = await Promise.all(Array.from({ length: 10 }, () => subject.queue.reserve(4)));
      const granted = asked.filter((release) => release !== undefined);
      expect(granted).toHaveLength(3);
      // A place given back (upload failed) can be taken again; releasing twice frees it once.
      await granted[0]?.();
      await granted[0]?.();
      const again = await subject.queue.reserve(4);
      expect(again).toBeDefined();
      expect(await subject.queue.reserve(4)).toBeUndefined();
      // A job added, then its place released: it counts as waiting instead.
      await subject.queue.add(randomUUID());
      await again?.();
      expect(await subject.queue.reserve(4)).toBeUndefined();
      for (const release of granted.slice(1)) await release?.();
      expect(await subject.queue.reserve(4)).toBeDefined();
    });

    it('hands jobs out first in, first out, never more than the concurrency at once', async () => {
      const ids = Array.from({ length: 5 }, () => randomUUID());
      for (const id of ids) await subject.queue.add(id);
      const order: string[] = [];
      let running = 0;
      let most = 0;
      subject.queue.process(
        async ({ jobId }) => {
          running++;
          most = Math.max(most, running);
          order.push(jobId);
          await new Promise((resolve) => setTimeout(resolve, 10));
          running--;
        },
        { concurrency: 2 },
      );
      await until(async () => (await subject.queue.counts()).waiting === 0 && running === 0 && order.length === 5);
      expect(order).toEqual(ids);
      expect(most).toBe(2);
    });

    it('reports position 0 while a job runs and moves the others up', async () => {
      const [first, second, third] = [randomUUID(), randomUUID(), randomUUID()];
      for (const id of [first, second, third]) await subject.queue.add(id);
      const release = deferred();
      subject.queue.process(() => release.promise, { concurrency: 1 });
      await until(async () => (await subject.queue.position(first)) === 0);
      expect(await subject.queue.position(second)).toBe(1);
      expect(await subject.queue.position(third)).toBe(2);
      expect(await subject.queue.counts()).toEqual({ waiting: 2, active: 1 });
      release.resolve();
    });

    it('puts a job whose handler threw back at the head with the next attempt number', async () => {
      const [first, second] = [randomUUID(), randomUUID()];
      await subject.queue.add(first);
      await subject.queue.add(second);
      const deliveries: QueueDelivery[] = [];
      subject.queue.process(
        async (delivery) => {
          deliveries.push(delivery);
          if (delivery.jobId === first && delivery.attempt === 1) throw new Error('render crashed');
        },
        { concurrency: 1 },
      );
      await until(() => deliveries.length === 3);
      expect(deliveries).toEqual([
        { jobId: first, attempt: 1 },
        { jobId: first, attempt: 2 },
        { jobId: second, attempt: 1 },
      ]);
    });

    it('keeps waiting jobs across a restart, in order', async () => {
      const ids = [randomUUID(), randomUUID(), randomUUID()];
      for (const id of ids) await subject.queue.add(id);
      await subject.queue.close();
      const reopened = await subject.reopen();
      expect(await Promise.all(ids.map((id) => reopened.position(id)))).toEqual([1, 2, 3]);
      const seen: string[] = [];
      reopened.process(
        async ({ jobId }) => {
          seen.push(jobId);
        },
        { concurrency: 1 },
      );
      await until(() => seen.length === 3);
      expect(seen).toEqual(ids);
    });

    it('redelivers a job whose process died mid-delivery, counting the lost attempt', async () => {
      const id = randomUUID();
      await subject.queue.add(id);
      const started = deferred();
      subject.queue.process(
        () => {
          started.resolve();
          return new Promise<void>(() => {});
        },
        { concurrency: 1 },
      );
      await started.promise;
      const reopened = await subject.reopen();
      const recovered: string[] = [];
      reopened.onRecovered((jobId) => recovered.push(jobId));
      expect(await reopened.recover()).toEqual(subject.recoversOnReopen ? [id] : []);
      const deliveries: QueueDelivery[] = [];
      reopened.process(
        async (delivery) => {
          deliveries.push(delivery);
        },
        { concurrency: 1 },
      );
      await until(() => deliveries.length === 1, subject.redeliveryTimeoutMs);
      expect(deliveries).toEqual([{ jobId: id, attempt: 2 }]);
      expect(recovered).toEqual([id]);
    });

    it('stops taking jobs on close but lets the running one finish', async () => {
      const [first, second] = [randomUUID(), randomUUID()];
      await subject.queue.add(first);
      await subject.queue.add(second);
      const release = deferred();
      const finished: string[] = [];
      subject.queue.process(
        async ({ jobId }) => {
          await release.promise;
          finished.push(jobId);
        },
        { concurrency: 1 },
      );
      await until(async () => (await subject.queue.position(first)) === 0);
      const closing = subject.queue.close();
      release.resolve();
      await closing;
      expect(finished).toEqual([first]);
      expect(await subject.queue.position(second)).toBe(1);
    });
  });
}
