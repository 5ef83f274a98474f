import { IN_STORY, type LayingPlan, STORY_CLIP } from '@selfie-mosaic/contract';
import { BufferTarget, CanvasSource, Mp4OutputFormat, Output, Quality, WebMOutputFormat } from 'mediabunny';
import { Laying } from '../laying/laying';
import { CLIP_BITRATE, type ClipCodec } from './clip-codecs';

/** The containers by name; MP4 puts its index first so that a player starts without reading to the end. */
const CONTAINERS = {
  mp4: () => new Mp4OutputFormat({ fastStart: 'in-memory' }),
  webm: () => new WebMOutputFormat(),
} as const;

/**
 * Few key frames: each is a whole picture, and encoders that keep no bitrate (Firefox's) spend most of
 * the file on them. One at the start and one amid the laying still let an editor seek.
 */
const KEY_FRAME_INTERVAL_S = 5;

export interface EncodeClipOptions {
  codec: ClipCodec;
  /** Called after each frame with the share of the clip encoded, 0–1. */
  onProgress?: (done: number) => void;
  signal?: AbortSignal;
  /** Awaited between frames: on the page, a pause that lets it paint and answer taps. */
  pause?: () => Promise<void>;
}

/** How many frames the clip has: the laying, then the finished story held. */
export const CLIP_FRAMES = Math.round(((STORY_CLIP.layingMs + STORY_CLIP.holdMs) / 1000) * STORY_CLIP.frameRate);

/**
 * Encodes the story clip: the story laid tessera by tessera from its laying plan, then the finished
 * story (the decoded JPEG itself, wordmark and all) held a moment, at a constant frame rate. Runs in
 * a worker or on the page, wherever there is a 2D canvas and WebCodecs.
 */
export async function encodeClip(
  plan: LayingPlan,
  story: CanvasImageSource,
  { codec, onProgress, signal, pause }: EncodeClipOptions,
): Promise<Blob> {
  const { width, height, frameRate, layingMs } = STORY_CLIP;
  const canvas = makeCanvas(width, height);
  const ctx = canvas.getContext('2d', { alpha: false }) as
    | CanvasRenderingContext2D
    | OffscreenCanvasRenderingContext2D
    | null;
  if (!ctx) throw new Error('no 2D canvas to draw the clip on');
  const laying = new Laying(plan, story, { format: 'story', durationMs: layingMs });
  if (laying.width !== width || laying.height !== height) {
    throw new Error(`Expected a ${width}×${height} story for the clip but received ${laying.width}×${laying.height}`);
  }
  // A plan that lays nothing of the story would give a still picture, not a clip.
  if (!plan.formats.some((formats) => (formats & IN_STORY) !== 0)) {
    throw new Error('the laying plan lays no tessera of the story');
  }

  const target = new BufferTarget();
  const output = new Output({ format: CONTAINERS[codec.container](), target });
  const source = new CanvasSource(canvas, {
    codec: codec.codec,
    fullCodecString: codec.codecString,
    quality: new Quality({ bitrate: CLIP_BITRATE }),
    keyFrameInterval: KEY_FRAME_INTERVAL_S,
  });
  output.addVideoTrack(source, { frameRate });
  const cancel = () => void output.cancel();
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    await output.start();
    for (let frame = 0; frame < CLIP_FRAMES; frame++) {
      signal?.throwIfAborted();
      laying.drawFrame(ctx, (frame * 1000) / frameRate);
      await source.add(frame / frameRate, 1 / frameRate);
      onProgress?.((frame + 1) / CLIP_FRAMES);
      await pause?.();
    }
    source.close();
    await output.finalize();
  } catch (error) {
    if (output.state !== 'canceled' && output.state !== 'finalized') await output.cancel();
    throw error;
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
  if (!target.buffer) throw new Error('the clip came out empty');
  return new Blob([target.buffer], { type: codec.mimeType });
}

function makeCanvas(width: number, height: number): OffscreenCanvas | HTMLCanvasElement {
  if (typeof OffscreenCanvas !== 'undefined') return new OffscreenCanvas(width, height);
  return Object.assign(document.createElement('canvas'), { width, height });
}
