import { describe, expect, it } from 'vitest';
import { isInAppBrowser } from '../../lib/in-app-browser';
import { cameraErrorKey, canUseLiveCamera } from './camera-errors';

const named = (name: string) => Object.assign(new Error(name), { name });

describe('camera errors', () => {
  it('maps a refused permission to the permission message', () => {
    expect(cameraErrorKey(named('NotAllowedError'))).toBe('cameraPermissionDenied');
    expect(cameraErrorKey(named('SecurityError'))).toBe('cameraPermissionDenied');
  });

  it('maps a missing or unsuitable camera to the no-camera message', () => {
    expect(cameraErrorKey(named('NotFoundError'))).toBe('cameraNotFound');
    expect(cameraErrorKey(named('OverconstrainedError'))).toBe('cameraNotFound');
  });

  it('maps anything else to the general camera message', () => {
    expect(cameraErrorKey(named('NotReadableError'))).toBe('cameraUnavailable');
    expect(cameraErrorKey('weird')).toBe('cameraUnavailable');
  });
});

describe('live camera or file picker', () => {
  const instagram =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 300.0';
  const facebook = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/120 Mobile [FB_IAB/FB4A;FBAV/440.0]';
  const safari =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile Safari/604.1';

  it('recognises in-app browsers', () => {
    expect(isInAppBrowser(instagram)).toBe(true);
    expect(isInAppBrowser(facebook)).toBe(true);
    expect(isInAppBrowser(safari)).toBe(false);
  });

  it('offers the live camera only with getUserMedia outside in-app browsers', () => {
    const media = { getUserMedia: () => Promise.resolve() };
    expect(canUseLiveCamera({ userAgent: safari, mediaDevices: media } as unknown as Navigator)).toBe(true);
    expect(canUseLiveCamera({ userAgent: instagram, mediaDevices: media } as unknown as Navigator)).toBe(false);
    expect(canUseLiveCamera({ userAgent: safari } as unknown as Navigator)).toBe(false);
  });
});
