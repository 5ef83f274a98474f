import { type ClipContainer, STORY_CLIP } from '@selfie-mosaic/contract';

/**
 * Which encoder makes the story clip, asked of the browser without loading the encoder's code: the
 * result screen offers the clip only where one of these answers, so a visitor never meets a button
 * that cannot work.
 */

/** One way to encode the clip: a WebCodecs codec string, the name mediabunny gives its codec, and the file it goes in. */
export interface ClipCodec {
  container: ClipContainer;
  codec: 'avc' | 'vp9' | 'vp8';
  /** The WebCodecs codec string: profile and level fixed, so the browser answers for exactly what is encoded. */
  codecString: string;
  mimeType: string;
}

/**
 * In order of preference. H.264 in MP4 first: every phone plays it and every app takes it. Its levels
 * from 4.0 hold the story clip's size and frame rate (STORY_CLIP); High, then Main, then Constrained Baseline, as
 * encoders offer them. WebM (VP9, then VP8) where the browser encodes only that.
 */
export const CLIP_CODECS: readonly ClipCodec[] = [
  { container: 'mp4', codec: 'avc', codecString: 'avc1.640028', mimeType: 'video/mp4' },
  { container: 'mp4', codec: 'avc', codecString: 'avc1.4d0028', mimeType: 'video/mp4' },
  { container: 'mp4', codec: 'avc', codecString: 'avc1.42e028', mimeType: 'video/mp4' },
  { container: 'mp4', codec: 'avc', codecString: 'avc1.640033', mimeType: 'video/mp4' },
  { container: 'webm', codec: 'vp9', codecString: 'vp09.00.40.08', mimeType: 'video/webm' },
  { container: 'webm', codec: 'vp8', codecString: 'vp8', mimeType: 'video/webm' },
];

/**
 * The clip's bitrate in bits per second: sharp tesserae at the story's size, and with the hold's
 * near-empty frames a file well under STORY_CLIP.maxBytes.
 */
export const CLIP_BITRATE = 4_000_000;

/** The encoder settings the browser is asked about, and then encodes with. */
export function encoderConfig(codec: ClipCodec): VideoEncoderConfig {
  return {
    codec: codec.codecString,
    width: STORY_CLIP.width,
    height: STORY_CLIP.height,
    bitrate: CLIP_BITRATE,
    framerate: STORY_CLIP.frameRate,
    ...(codec.codec === 'avc' ? { avc: { format: 'avc' as const } } : {}),
  };
}

/** What detection needs of the browser: WebCodecs' encoder and frames, and a canvas to draw the frames on. */
interface ClipEnvironment {
  VideoEncoder?: Pick<typeof VideoEncoder, 'isConfigSupported'>;
  VideoFrame?: unknown;
  OffscreenCanvas?: unknown;
  document?: { createElement?: (name: 'video') => Pick<HTMLVideoElement, 'canPlayType'> };
}

/** The first codec this browser encodes the clip with, or null when it encodes none (the clip is then not offered). */
export async function detectClipCodec(
  env: ClipEnvironment = globalThis as unknown as ClipEnvironment,
): Promise<ClipCodec | null> {
  const encoder = env.VideoEncoder;
  if (typeof encoder?.isConfigSupported !== 'function' || typeof env.VideoFrame !== 'function') return null;
  if (typeof env.OffscreenCanvas !== 'function' && !env.document) return null;
  // WebKitGTK's encoders run on GStreamer, which its WebCodecs may use before it is started, taking the
  // page down; a media element's first question starts it. Elsewhere the question costs nothing.
  env.document?.createElement?.('video').canPlayType('video/mp4');
  for (const codec of CLIP_CODECS) {
    const supported = await encoder.isConfigSupported(encoderConfig(codec)).then(
      (answer) => answer.supported === true,
      () => false,
    );
    if (supported) return codec;
  }
  return null;
}

let detected: Promise<ClipCodec | null> | undefined;

/** detectClipCodec, asked once per page. */
export function canEncodeClip(): Promise<ClipCodec | null> {
  detected ??= detectClipCodec().catch(() => null);
  return detected;
}
