import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../session';
import { hasCamera, useOfferPhone } from './offer-phone';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Mobile/15E148 Safari/604.1';
const INSTAGRAM = `${IPHONE} Instagram 320.0.0.0`;

/** A browser: its main pointer, touch points, width and cameras. */
function browser(options: {
  coarse: boolean;
  touchPoints: number;
  width: number;
  cameras: number;
  userAgent?: string;
}) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: query.includes('pointer: coarse') ? options.coarse : options.width >= 1024,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      }) as unknown as MediaQueryList,
  );
  vi.spyOn(navigator, 'maxTouchPoints', 'get').mockReturnValue(options.touchPoints);
  if (options.userAgent) vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(options.userAgent);
  const devices = Array.from({ length: options.cameras }, () => ({ kind: 'videoinput' }) as MediaDeviceInfo);
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: vi.fn(), enumerateDevices: vi.fn(async () => devices) },
  });
}

const phone = { coarse: true, touchPoints: 5, width: 390, cameras: 2 };

afterEach(() => {
  vi.restoreAllMocks();
  sessionStore.reset();
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

/** The offer once the camera check has answered. */
async function offer(): Promise<boolean> {
  const { result } = renderHook(() => useOfferPhone());
  await act(async () => {
    await Promise.resolve();
  });
  return result.current;
}

describe('who is offered "Use your phone"', () => {
  it('a computer with a mouse, even with a webcam, in a narrow window', async () => {
    browser({ coarse: false, touchPoints: 0, width: 800, cameras: 1 });
    expect(await offer()).toBe(true);
  });

  it('a touch device without a camera, or one with a wide screen', async () => {
    browser({ ...phone, cameras: 0 });
    expect(await offer()).toBe(true);
    vi.restoreAllMocks();
    browser({ ...phone, width: 1280 });
    expect(await offer()).toBe(true);
  });

  it('not a phone with a camera, nor a phone that came from a computer’s code, nor an in-app browser', async () => {
    browser(phone);
    expect(await offer()).toBe(false);
    vi.restoreAllMocks();
    browser({ coarse: false, touchPoints: 0, width: 1280, cameras: 0 });
    sessionStore.update({ handoffId: null, handoffRole: 'phone' });
    expect(await offer()).toBe(false);
    sessionStore.reset();
    vi.restoreAllMocks();
    browser({ ...phone, cameras: 0, userAgent: INSTAGRAM });
    expect(await offer()).toBe(false);
  });
});

describe('camera check', () => {
  it('finds a camera in the device list, none without getUserMedia, and trusts a browser that cannot list', async () => {
    const withDevices = (kinds: string[], extra: object = {}) =>
      ({
        mediaDevices: {
          getUserMedia: vi.fn(),
          enumerateDevices: async () => kinds.map((kind) => ({ kind })),
          ...extra,
        },
      }) as unknown as Navigator;
    expect(await hasCamera(withDevices(['audioinput', 'videoinput']))).toBe(true);
    expect(await hasCamera(withDevices(['audioinput']))).toBe(false);
    expect(await hasCamera(withDevices([], { getUserMedia: undefined }))).toBe(false);
    expect(await hasCamera(withDevices([], { enumerateDevices: undefined }))).toBe(true);
  });
});
