import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { syntheticPlan } from '../../test/laying-plan';
import { REVEAL_MS, REVEAL_PREPARE_MS, RevealedArtwork } from './Reveal';
import { loadRevealAssets } from './reveal-assets';

vi.mock('./reveal-assets', () => ({ loadRevealAssets: vi.fn() }));

/** A 2D context that draws nothing but answers every call. */
function quietContext(): CanvasRenderingContext2D {
  return new Proxy({} as Record<string | symbol, unknown>, {
    get: (target, key) => (key in target ? target[key] : key === 'createPattern' ? () => ({}) : () => undefined),
    set: (target, key, value) => {
      target[key] = value;
      return true;
    },
  }) as unknown as CanvasRenderingContext2D;
}

/** The browser's frames, run by hand: `frame(ms)` draws the next one at that time. */
let frames: FrameRequestCallback[] = [];
function frame(now: number) {
  const due = frames;
  frames = [];
  act(() => {
    for (const callback of due) callback(now);
  });
}

let reducedMotion = false;
const release = vi.fn();

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  frames = [];
  reducedMotion = false;
  sessionStore.update({ artworkRevealed: false });
  vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback));
  vi.spyOn(window, 'cancelAnimationFrame').mockImplementation(() => {
    frames = [];
  });
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query) => ({ matches: reducedMotion && query.includes('reduce'), media: query }) as MediaQueryList,
  );
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation((() =>
    quietContext()) as unknown as HTMLCanvasElement['getContext']);
  vi.mocked(loadRevealAssets)
    .mockReset()
    .mockResolvedValue({ plan: syntheticPlan(), picture: {} as ImageBitmap, release });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  release.mockClear();
});

async function show(props: { planUrl?: string | null; format?: 'post' | 'story' } = {}) {
  const view = render(
    <RevealedArtwork
      planUrl={props.planUrl === undefined ? '/files/t.plan' : props.planUrl}
      format={props.format ?? 'post'}
      src="/files/t.jpg"
      alt="Your selfie as a mosaic artwork"
      skipLabel="Skip"
    />,
  );
  // The plan and the picture arrive.
  await act(async () => undefined);
  return view;
}

const figure = () => screen.getByRole('figure');
const artworkShown = () => !figure().classList.contains('artwork--revealing') && !screen.queryByTestId('reveal');

describe('the reveal', () => {
  it('lays the artwork over its image, then leaves the image alone', async () => {
    await show();
    expect(loadRevealAssets).toHaveBeenCalledWith('/files/t.plan', screen.getByRole('img'), expect.any(AbortSignal));
    expect(screen.getByTestId('reveal').dataset.state).toBe('playing');
    expect(figure().classList.contains('artwork--revealing')).toBe(true);
    // The canvases carry the figure's rounded corners themselves: it does not clip them every frame.
    expect(figure().classList.contains('artwork--unclipped')).toBe(true);
    // The image is there for screen readers throughout; the canvases are not.
    expect(screen.getByRole('img', { name: 'Your selfie as a mosaic artwork' })).toBeTruthy();
    expect(screen.getByTestId('reveal').getAttribute('aria-hidden')).toBe('true');
    expect(sessionStore.getState().artworkRevealed).toBe(true);

    // The first frame shows the campaign frame and the bare bed; the clock starts at the next.
    frame(0);
    frame(1000);
    frame(1000 + REVEAL_MS / 2);
    expect(screen.getByTestId('reveal').dataset.state).toBe('playing');
    frame(1000 + REVEAL_MS);
    expect(artworkShown()).toBe(true);
    expect(frames).toHaveLength(0);
    expect(release).toHaveBeenCalled();
  });

  it('skips to the artwork on the Skip button or a tap on the picture', async () => {
    await show();
    frame(0);
    fireEvent.click(screen.getByRole('button', { name: 'Skip' }));
    expect(screen.getByTestId('reveal').dataset.state).toBe('leaving');
    expect(figure().classList.contains('artwork--revealing')).toBe(false);
    expect(screen.queryByRole('button', { name: 'Skip' })).toBeNull();
    act(() => vi.advanceTimersByTime(500));
    expect(artworkShown()).toBe(true);

    cleanup();
    sessionStore.update({ artworkRevealed: false });
    await show();
    frame(0);
    fireEvent.click(screen.getByTestId('reveal'));
    act(() => vi.advanceTimersByTime(500));
    expect(artworkShown()).toBe(true);
  });

  it('shows the artwork at once under reduced motion', async () => {
    reducedMotion = true;
    await show();
    expect(artworkShown()).toBe(true);
    expect(loadRevealAssets).not.toHaveBeenCalled();
    expect(sessionStore.getState().artworkRevealed).toBe(true);
  });

  it('shows the artwork at once when it was shown before, when there is no plan, and for the story', async () => {
    sessionStore.update({ artworkRevealed: true });
    await show();
    expect(artworkShown()).toBe(true);
    cleanup();
    sessionStore.update({ artworkRevealed: false });
    await show({ planUrl: null });
    expect(artworkShown()).toBe(true);
    cleanup();
    sessionStore.update({ artworkRevealed: false });
    await show({ format: 'story' });
    expect(artworkShown()).toBe(true);
    expect(loadRevealAssets).not.toHaveBeenCalled();
  });

  it('shows the artwork at once when the plan or the picture fails, or no canvas draws', async () => {
    vi.mocked(loadRevealAssets).mockRejectedValueOnce(new Error('the laying plan answered 404'));
    await show();
    act(() => vi.advanceTimersByTime(500));
    expect(artworkShown()).toBe(true);

    cleanup();
    sessionStore.update({ artworkRevealed: false });
    vi.mocked(HTMLCanvasElement.prototype.getContext).mockReturnValue(null);
    await show();
    act(() => vi.advanceTimersByTime(500));
    expect(artworkShown()).toBe(true);
  });

  it('gives up when the plan and picture take too long, and ends when the tab is hidden', async () => {
    vi.mocked(loadRevealAssets).mockReturnValueOnce(new Promise(() => undefined));
    await show();
    expect(screen.getByTestId('reveal').dataset.state).toBe('preparing');
    act(() => vi.advanceTimersByTime(REVEAL_PREPARE_MS));
    act(() => vi.advanceTimersByTime(500));
    expect(artworkShown()).toBe(true);

    cleanup();
    sessionStore.update({ artworkRevealed: false });
    await show();
    frame(0);
    const hidden = vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    hidden.mockRestore();
    act(() => vi.advanceTimersByTime(500));
    expect(artworkShown()).toBe(true);
  });

  it('stops when the visitor picks the story mid-reveal', async () => {
    const view = await show();
    frame(0);
    view.rerender(
      <RevealedArtwork
        planUrl="/files/t.plan"
        format="story"
        src="/files/t.story.jpg"
        alt="Your selfie as a mosaic artwork, in story format"
        skipLabel="Skip"
      />,
    );
    expect(artworkShown()).toBe(true);
  });
});
