import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { syntheticPlan } from '../../../test/laying-plan';
import { CLIP_CODECS, type ClipCodec } from './clip-codecs';
import { encodeClip } from './encode-clip';
import { CLIP_MEASURE, type ClipReply, type ClipRequest, makeClip } from './make-clip';

vi.mock('./encode-clip', () => ({ encodeClip: vi.fn() }));

/** The browser features a test sets for itself, put back as they were after it. */
const replaced = new Map<string, PropertyDescriptor | undefined>();
function setGlobal(name: string, value: unknown): void {
  if (!replaced.has(name)) replaced.set(name, Object.getOwnPropertyDescriptor(globalThis, name));
  Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
}
function restoreGlobals(): void {
  for (const [name, descriptor] of replaced) {
    if (descriptor) Object.defineProperty(globalThis, name, descriptor);
    else Reflect.deleteProperty(globalThis, name);
  }
  replaced.clear();
}

const codec = CLIP_CODECS[0] as ClipCodec;
const plan = syntheticPlan();
const story = new Blob(['jpeg'], { type: 'image/jpeg' });

/** A stand-in module worker that answers each request with `replies`. */
function workerAnswering(replies: (request: ClipRequest) => ClipReply[]) {
  const made: FakeWorker[] = [];
  class FakeWorker {
    onmessage: ((event: MessageEvent<ClipReply>) => void) | null = null;
    onerror: ((event: ErrorEvent) => void) | null = null;
    terminate = vi.fn();
    constructor() {
      made.push(this);
    }
    postMessage(request: ClipRequest) {
      setTimeout(() => {
        for (const data of replies(request)) this.onmessage?.({ data } as MessageEvent<ClipReply>);
      });
    }
  }
  setGlobal('Worker', FakeWorker);
  return made;
}

beforeEach(() => {
  setGlobal('OffscreenCanvas', class {});
  setGlobal(
    'createImageBitmap',
    vi.fn(async () => ({ close: vi.fn() })),
  );
  vi.mocked(encodeClip)
    .mockReset()
    .mockResolvedValue(new Blob(['page clip'], { type: 'video/mp4' }));
});

afterEach(() => {
  restoreGlobals();
});

describe('making the clip', () => {
  it('in a worker where the browser has one: progress passed on, the clip returned, the worker ended', async () => {
    const clip = new Blob(['worker clip'], { type: 'video/mp4' });
    const workers = workerAnswering((request) => {
      expect(request).toMatchObject({ type: 'make', story, codec });
      expect(request.plan.count).toBe(plan.count);
      return [
        { type: 'progress', done: 0.5 },
        { type: 'progress', done: 1 },
        { type: 'done', clip },
      ];
    });
    const onProgress = vi.fn();
    expect(await makeClip(plan, story, { codec: codec, onProgress })).toBe(clip);
    expect(onProgress.mock.calls).toEqual([[0.5], [1]]);
    expect(encodeClip).not.toHaveBeenCalled();
    expect(workers[0]?.terminate).toHaveBeenCalled();
    const measure = performance.getEntriesByName(CLIP_MEASURE).at(-1) as PerformanceMeasure;
    expect(measure.detail).toEqual({ bytes: clip.size, type: 'video/mp4', offThread: true });
  });

  it('on the page when the worker refuses before its first frame', async () => {
    workerAnswering(() => [{ type: 'failed', message: 'this worker has no WebCodecs' }]);
    const clip = await makeClip(plan, story, { codec: codec });
    expect(await clip.text()).toBe('page clip');
    expect(encodeClip).toHaveBeenCalledOnce();
    // The page pauses between frames so that it keeps answering taps.
    expect(vi.mocked(encodeClip).mock.calls[0]?.[2].pause).toBeTypeOf('function');
  });

  it('fails when the worker fails after it started, without making it twice', async () => {
    workerAnswering(() => [
      { type: 'progress', done: 0.1 },
      { type: 'failed', message: 'encoder error' },
    ]);
    await expect(makeClip(plan, story, { codec: codec })).rejects.toThrow('encoder error');
    expect(encodeClip).not.toHaveBeenCalled();
  });

  it('stops when abandoned', async () => {
    const workers = workerAnswering(() => []);
    const controller = new AbortController();
    const made = makeClip(plan, story, { codec: codec, signal: controller.signal });
    controller.abort();
    await expect(made).rejects.toThrow();
    expect(workers[0]?.terminate).toHaveBeenCalled();
  });

  it('on the page where there is no worker with a canvas', async () => {
    setGlobal('OffscreenCanvas', undefined);
    workerAnswering(() => {
      throw new Error('no worker should start');
    });
    expect(await (await makeClip(plan, story, { codec: codec })).text()).toBe('page clip');
  });
});
