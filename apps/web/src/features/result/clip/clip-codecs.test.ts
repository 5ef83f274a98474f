import { STORY_CLIP } from '@selfie-mosaic/contract';
import { describe, expect, it, vi } from 'vitest';
import { CLIP_CODECS, detectClipCodec } from './clip-codecs';

/** A browser whose encoder supports the codec strings given (or answers with `answer` for each). */
function browser(answer: (config: VideoEncoderConfig) => Promise<{ supported?: boolean }>) {
  const isConfigSupported = vi.fn(answer);
  return {
    env: { VideoEncoder: { isConfigSupported }, VideoFrame: class {}, OffscreenCanvas: class {} },
    isConfigSupported,
  };
}
const supporting =
  (...codecs: string[]) =>
  async (config: VideoEncoderConfig) => ({ supported: codecs.includes(config.codec) });

describe('whether the browser can make the story clip', () => {
  it('prefers H.264 in MP4, asked at the clip’s size, rate and bitrate', async () => {
    const { env, isConfigSupported } = browser(supporting('avc1.640028', 'vp09.00.40.08'));
    expect(await detectClipCodec(env)).toMatchObject({ container: 'mp4', codec: 'avc', mimeType: 'video/mp4' });
    expect(isConfigSupported).toHaveBeenCalledTimes(1);
    expect(isConfigSupported.mock.calls[0]?.[0]).toMatchObject({
      codec: 'avc1.640028',
      width: STORY_CLIP.width,
      height: STORY_CLIP.height,
      framerate: STORY_CLIP.frameRate,
    });
  });

  it('tries the other H.264 profiles, then WebM where only VP9 or VP8 encodes', async () => {
    expect((await detectClipCodec(browser(supporting('avc1.42e028')).env))?.codecString).toBe('avc1.42e028');
    expect(await detectClipCodec(browser(supporting('vp09.00.40.08', 'vp8')).env)).toMatchObject({
      container: 'webm',
      codec: 'vp9',
      mimeType: 'video/webm',
    });
    expect((await detectClipCodec(browser(supporting('vp8')).env))?.codec).toBe('vp8');
  });

  it('offers no clip where no configuration is supported, or asking fails', async () => {
    const { env, isConfigSupported } = browser(supporting());
    expect(await detectClipCodec(env)).toBeNull();
    expect(isConfigSupported).toHaveBeenCalledTimes(CLIP_CODECS.length);
    expect(await detectClipCodec(browser(async () => Promise.reject(new TypeError('bad config'))).env)).toBeNull();
    expect(await detectClipCodec(browser(async () => ({})).env)).toBeNull();
  });

  it('offers no clip without WebCodecs or a canvas to draw the frames on', async () => {
    expect(await detectClipCodec({})).toBeNull();
    const { env } = browser(supporting('avc1.640028'));
    expect(await detectClipCodec({ ...env, VideoEncoder: undefined })).toBeNull();
    expect(await detectClipCodec({ ...env, VideoFrame: undefined })).toBeNull();
    expect(await detectClipCodec({ ...env, OffscreenCanvas: undefined })).toBeNull();
    expect(await detectClipCodec({ ...env, OffscreenCanvas: undefined, document: {} })).not.toBeNull();
  });

  it('starts the media framework with a media element’s question before asking the encoder', async () => {
    const order: string[] = [];
    const { env } = browser(async () => {
      order.push('encoder');
      return { supported: true };
    });
    const canPlayType = vi.fn(() => {
      order.push('media element');
      return 'maybe' as const;
    });
    await detectClipCodec({ ...env, document: { createElement: () => ({ canPlayType }) } });
    expect(order.slice(0, 2)).toEqual(['media element', 'encoder']);
  });

  it('asks this page’s browser, which here (happy-dom) has no encoder', async () => {
    expect('VideoEncoder' in globalThis).toBe(false);
    expect(await detectClipCodec()).toBeNull();
  });
});
