import { encodeLayingPlan } from '@selfie-mosaic/contract';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jobSession } from '../../../lib/job';
import { sendEvent } from '../../../lib/pageview';
import { sessionStore } from '../../../lib/session';
import { answerFetch } from '../../../test/answer-fetch';
import { syntheticPlan } from '../../../test/laying-plan';
import { serveLocaleFiles } from '../../../test/locale-files';
import { renderApp } from '../../../test/render-app';
import { CLIP_CODECS, type ClipCodec, canEncodeClip } from './clip-codecs';
import { makeClip } from './make-clip';

vi.mock('./clip-codecs', async (original) => ({
  ...(await original<typeof import('./clip-codecs')>()),
  canEncodeClip: vi.fn(),
}));
vi.mock('./make-clip', () => ({ makeClip: vi.fn() }));

const H264 = CLIP_CODECS[0] as ClipCodec;
const plan = syntheticPlan();
const CLIP_BYTES = 'an mp4';
const IN_APP =
  'Mozilla/5.0 (Linux; Android 13; Pixel 7; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/114.0 Mobile Safari/537.36 Instagram 291.0.0.31.111 Android';

/** A finished job's artwork on the result screen, with its laying plan; the pictures answer from a stand-in server. */
async function showArtwork() {
  sessionStore.update({
    questionAnswer: 'yes',
    consentGiven: true,
    currentJobId: '00000000-0000-4000-8000-000000000001',
    processedImage: '/files/t.jpg',
    storyImage: '/files/t.story.jpg',
    layingPlan: '/files/t.plan',
    artworkRevealed: true,
    isProcessing: false,
  });
  await renderApp('/gb/en/result');
  await screen.findByRole('heading', { name: 'Download your artwork' });
}

const clipOption = () => screen.queryByRole('radio', { name: 'Clip 9:16' });
const offeredClip = () => screen.findByRole('radio', { name: 'Clip 9:16' });

function standInShare(canShare = true) {
  const share = vi.fn(async (_data: ShareData) => undefined);
  Object.defineProperty(navigator, 'share', { configurable: true, value: share });
  Object.defineProperty(navigator, 'canShare', { configurable: true, value: () => canShare });
  return share;
}

beforeEach(() => {
  vi.mocked(canEncodeClip).mockResolvedValue(H264);
  vi.mocked(makeClip).mockReset();
  vi.mocked(makeClip).mockImplementation(async (_plan, _story, { onProgress }) => {
    onProgress?.(0.5);
    return new Blob([CLIP_BYTES], { type: 'video/mp4' });
  });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  // The copy from the sources; the plan and the pictures as the server sends them.
  serveLocaleFiles();
  const copy = vi.mocked(globalThis.fetch).getMockImplementation() as typeof fetch;
  answerFetch(async (input, init) => {
    const url = String(input);
    if (url.endsWith('.plan')) return new Response(new Blob([encodeLayingPlan(plan) as Uint8Array<ArrayBuffer>]));
    if (url.startsWith('/files/')) return new Response(new Blob([url], { type: 'image/jpeg' }));
    return copy(input, init);
  });
});

afterEach(() => {
  cleanup();
  jobSession.reset();
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'share');
  Reflect.deleteProperty(navigator, 'canShare');
});

describe('the story clip on the result screen', () => {
  it('is made once when chosen, shown with its progress, then downloaded under its name and counted', async () => {
    let finish: (clip: Blob) => void = () => undefined;
    vi.mocked(makeClip).mockImplementationOnce(async (_plan, _story, { onProgress }) => {
      onProgress?.(0.42);
      return new Promise<Blob>((resolve) => {
        finish = resolve;
      });
    });
    await showArtwork();
    const option = await offeredClip();
    expect(screen.getAllByRole('radio')).toHaveLength(3);
    // Nothing is made before the visitor asks for it.
    expect(makeClip).not.toHaveBeenCalled();

    fireEvent.click(option);
    expect(await screen.findByText('Making your clip…')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('42'));
    expect(screen.getByRole('img', { name: /in story format/ }).getAttribute('src')).toBe('/files/t.story.jpg');
    expect((screen.getByRole('button', { name: 'Download' }) as HTMLButtonElement).disabled).toBe(true);
    const [madeFrom, story, options] = vi.mocked(makeClip).mock.calls[0] ?? [];
    expect(madeFrom?.count).toBe(plan.count);
    expect(await story?.text()).toBe('/files/t.story.jpg');
    expect(options?.codec).toBe(H264);

    await act(async () => finish(new Blob([CLIP_BYTES], { type: 'video/mp4' })));
    const video = (await screen.findByTestId('clip-video')) as HTMLVideoElement;
    expect(video.getAttribute('aria-label')).toBe('Your mosaic being laid tile by tile, as a story video');
    expect(video.muted && video.loop).toBe(true);
    expect(video.hasAttribute('playsinline')).toBe(true);
    const download = screen.getByRole('link', { name: 'Download' });
    expect(download.getAttribute('download')).toBe('iqos-mosaic-story.mp4');
    expect(download.getAttribute('href')).toBe(video.getAttribute('src'));
    expect(download.getAttribute('href')).toMatch(/^blob:/);

    vi.mocked(sendEvent).mockClear();
    // The page stays (happy-dom would follow the link).
    download.addEventListener('click', (event) => event.preventDefault());
    fireEvent.click(download);
    expect(sendEvent).toHaveBeenCalledExactlyOnceWith('download', 'gb', 'en');

    // Back to the post and to the clip again: the same clip, not made twice.
    fireEvent.click(screen.getByRole('radio', { name: 'Post 4:5' }));
    expect(screen.getByRole('link', { name: 'Download' }).getAttribute('href')).toBe('/files/t.jpg?download=1');
    fireEvent.click(clipOption() as HTMLElement);
    expect(await screen.findByTestId('clip-video')).toBeTruthy();
    expect(makeClip).toHaveBeenCalledTimes(1);
  });

  it('shares the clip as a video file and counts the share; where the sheet cannot take it, saves it', async () => {
    const share = standInShare();
    await showArtwork();
    fireEvent.click(await offeredClip());
    expect((screen.getByRole('button', { name: 'Share' }) as HTMLButtonElement).disabled).toBe(true);
    await screen.findByTestId('clip-video');
    vi.mocked(sendEvent).mockClear();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Share' })));
    await waitFor(() => expect(sendEvent).toHaveBeenCalledExactlyOnceWith('share', 'gb', 'en'));
    const shared = share.mock.calls[0]?.[0];
    expect(Object.keys(shared ?? {}).sort()).toEqual(['files', 'title']);
    expect(shared?.files?.[0]).toMatchObject({ name: 'iqos-mosaic-story.mp4', type: 'video/mp4' });
    expect(await shared?.files?.[0]?.text()).toBe(CLIP_BYTES);

    Object.defineProperty(navigator, 'canShare', { configurable: true, value: () => false });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    vi.mocked(sendEvent).mockClear();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Share' })));
    expect(sendEvent).toHaveBeenCalledExactlyOnceWith('download', 'gb', 'en');
    const saved = click.mock.contexts[0] as HTMLAnchorElement;
    expect(saved.download).toBe('iqos-mosaic-story.mp4');
    expect(saved.href).toMatch(/^blob:/);
  });

  it('says so when the clip could not be made, and makes it again on request', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.mocked(makeClip).mockRejectedValueOnce(new Error('encoder gave up'));
    await showArtwork();
    fireEvent.click(await offeredClip());
    expect(await screen.findByText('We could not make your clip.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('clip-video')).toBeTruthy();
    expect(makeClip).toHaveBeenCalledTimes(2);
  });

  it('is not offered where the browser cannot encode it, or the job has no laying plan', async () => {
    vi.mocked(canEncodeClip).mockResolvedValue(null);
    await showArtwork();
    await act(async () => undefined);
    expect(screen.getAllByRole('radio')).toHaveLength(2);
    expect(clipOption()).toBeNull();
    cleanup();

    vi.mocked(canEncodeClip).mockResolvedValue(H264);
    sessionStore.update({ layingPlan: null });
    await renderApp('/gb/en/result');
    await screen.findByRole('heading', { name: 'Download your artwork' });
    await act(async () => undefined);
    expect(screen.getAllByRole('radio')).toHaveLength(2);
  });

  it('in an in-app browser, goes out through the share sheet only, and is not offered without one', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(IN_APP);
    await showArtwork();
    await act(async () => undefined);
    expect(clipOption()).toBeNull();
    cleanup();

    standInShare();
    await renderApp('/gb/en/result');
    fireEvent.click(await offeredClip());
    await screen.findByTestId('clip-video');
    expect(screen.queryByRole('link', { name: 'Download' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Download' })).toBeNull();
    expect((screen.getByRole('button', { name: 'Share' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
