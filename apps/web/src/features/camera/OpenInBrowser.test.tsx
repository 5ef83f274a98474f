import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { serveLocaleFiles } from '../../test/locale-files';
import { renderApp } from '../../test/render-app';
import { CAMERA_START_TIMEOUT_MS } from './camera-timeout';

const INSTAGRAM_ANDROID =
  'Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ2A.230505.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/114.0.5735.196 Mobile Safari/537.36 Instagram 291.0.0.31.111 Android (33/13; 420dpi; 1080x2400; Google; Pixel 7; panther; panther; en_GB; 493450264)';
const TIKTOK_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 16_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 musical_ly_29.3.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en Region/US BytedanceWebview/d8a21c6';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';

function browseWith(userAgent: string, getUserMedia?: () => Promise<MediaStream>) {
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(userAgent);
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: getUserMedia ? { getUserMedia: vi.fn(getUserMedia) } : {},
  });
}

async function openPhotoScreen() {
  await renderApp('/gb/en/photo');
  await screen.findByRole('heading', { level: 1 });
}

beforeEach(() => {
  sessionStore.update({ questionAnswer: 'yes', consentGiven: true });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  serveLocaleFiles();
});

afterEach(() => {
  cleanup();
  sessionStore.reset();
  vi.useRealTimers();
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

describe('the way out of an in-app browser', () => {
  it('on Android: a link that opens this page in the default browser, beside the file picker', async () => {
    browseWith(INSTAGRAM_ANDROID, async () => new MediaStream());
    await openPhotoScreen();
    expect(screen.getByText('Choose a photo')).toBeTruthy();
    const choice = screen.getByRole('region', { name: 'Open this page in your browser' });
    const link = within(choice).getByRole('link', { name: 'Open in your browser' });
    const href = link.getAttribute('href') ?? '';
    expect(href).toMatch(/^intent:\/\/localhost(:\d+)?\/gb\/en\/photo#Intent;scheme=http;/);
    expect(href).toMatch(/;end$/);
    // No live camera is offered where it cannot work.
    expect(screen.queryByRole('button', { name: 'Turn on camera' })).toBeNull();
  });

  it("on iOS: a picture of the app's menu and two short steps, no link that would go nowhere", async () => {
    browseWith(TIKTOK_IOS);
    await openPhotoScreen();
    const choice = screen.getByRole('region', { name: 'Open this page in your browser' });
    expect(within(choice).queryByRole('link')).toBeNull();
    expect(
      within(choice).getByRole('img', { name: "The app's menu, with “Open in browser” highlighted" }),
    ).toBeTruthy();
    expect(
      within(choice)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Tap ••• or the share button in this app.', 'Choose “Open in browser”.']);
  });

  it('is not offered in a real browser', async () => {
    browseWith(CHROME_ANDROID, async () => new MediaStream());
    await openPhotoScreen();
    expect(screen.queryByRole('region', { name: 'Open this page in your browser' })).toBeNull();
  });

  it('appears when a camera request never answers, with the file picker and another try', async () => {
    browseWith(CHROME_ANDROID, () => new Promise<MediaStream>(() => {}));
    await openPhotoScreen();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Turn on camera' }));
    });
    expect(screen.queryByRole('region', { name: 'Open this page in your browser' })).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(CAMERA_START_TIMEOUT_MS));
    expect(screen.getByRole('alert').textContent).toBe(
      "Your camera did not start. Open this page in your phone's browser, or choose a selfie from your gallery.",
    );
    expect(screen.getByRole('region', { name: 'Open this page in your browser' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open in your browser' })).toBeTruthy();
    expect(screen.getByText('Choose a photo')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
