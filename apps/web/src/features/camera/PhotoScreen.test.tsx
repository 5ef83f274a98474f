import type { HandoffStatus } from '@selfie-mosaic/contract';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import type { StreamLike } from '../../lib/stream-follower';
import { serveLocaleFiles } from '../../test/locale-files';
import { currentPath, renderApp } from '../../test/render-app';

/** The hand-off's server, played here: a desktop's code is made at once, and its stream says what the phone does. */
const handoff = vi.hoisted(() => ({ streams: [] as StreamLike[] }));
vi.mock('../../lib/handoff-api', () => ({
  createHandoff: async () => ({
    handoff_id: '11111111-1111-4111-8111-111111111111',
    token: 'K7M29XD4K7M29XD4K7M29XD4K7M2',
    expires_at: new Date(Date.now() + 600_000).toISOString(),
  }),
  fetchHandoffStatus: () => new Promise(() => undefined),
  openHandoffStream: () => {
    const stream: StreamLike = { onopen: null, onmessage: null, onerror: null, close: () => undefined };
    handoff.streams.push(stream);
    return stream;
  },
}));

function phoneSays(state: HandoffStatus['state'], jobId: string | null = null) {
  const data = JSON.stringify({ state, job_id: jobId, expires_at: new Date(Date.now() + 600_000).toISOString() });
  act(() => handoff.streams.at(-1)?.onmessage?.(new MessageEvent('message', { data })));
}

function fakeStream() {
  const track = { stop: vi.fn() };
  const stream = new MediaStream();
  stream.getTracks = () => [track as unknown as MediaStreamTrack];
  return { track, stream };
}

function withCamera(getUserMedia: (constraints: MediaStreamConstraints) => Promise<MediaStream>) {
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: vi.fn(getUserMedia) },
  });
  return navigator.mediaDevices.getUserMedia as unknown as ReturnType<typeof vi.fn>;
}

async function openPhotoScreen() {
  await renderApp('/gb/en/photo');
  await screen.findByRole('heading', { level: 1 });
}

const domError = (name: string) => Object.assign(new Error(name), { name });

beforeEach(() => {
  sessionStore.update({ questionAnswer: 'yes', consentGiven: true });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  serveLocaleFiles();
});

afterEach(() => {
  cleanup();
  sessionStore.reset();
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

describe('photo screen', () => {
  it('asks for the camera, then shows the live preview with take photo and switch camera', async () => {
    const { stream } = fakeStream();
    const getUserMedia = withCamera(async () => stream);
    await openPhotoScreen();
    expect(screen.getByRole('heading', { name: 'Allow camera access' })).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Turn on camera' }));
    });
    expect(await screen.findByRole('heading', { name: 'Position your face inside the circle' })).toBeTruthy();
    expect(getUserMedia).toHaveBeenCalledWith({
      audio: false,
      video: { facingMode: 'user', width: { ideal: 1280 }, height: { ideal: 1280 } },
    });
    expect(screen.getByLabelText('Camera preview').className).toContain('mirrored');
    expect(screen.getByRole('button', { name: 'Take photo' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Switch camera' })).toBeTruthy();
  });

  it('turns the camera on only when asked, even where the browser already allows it', async () => {
    vi.spyOn(navigator.permissions, 'query').mockResolvedValue({ state: 'granted' } as PermissionStatus);
    const getUserMedia = withCamera(async () => fakeStream().stream);
    await openPhotoScreen();
    expect(screen.getByRole('heading', { name: 'Allow camera access' })).toBeTruthy();
    expect(getUserMedia).not.toHaveBeenCalled();
  });

  it('stops the old camera before opening the other one, with a plain facingMode', async () => {
    const first = fakeStream();
    const second = fakeStream();
    const getUserMedia = withCamera(async (constraints) => {
      const video = constraints.video as MediaTrackConstraints;
      if (video.facingMode === 'environment') {
        expect(first.track.stop).toHaveBeenCalled();
        return second.stream;
      }
      return first.stream;
    });
    await openPhotoScreen();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Turn on camera' }));
    });
    const switchCamera = await screen.findByRole('button', { name: 'Switch camera' });
    await act(async () => {
      fireEvent.click(switchCamera);
    });
    expect(getUserMedia).toHaveBeenLastCalledWith(
      expect.objectContaining({ video: expect.objectContaining({ facingMode: 'environment' }) }),
    );
    expect(screen.getByLabelText('Camera preview').className).not.toContain('mirrored');
  });

  it('says when switching camera fails and keeps the current one', async () => {
    const first = fakeStream();
    withCamera(async (constraints) => {
      if ((constraints.video as MediaTrackConstraints).facingMode === 'environment') throw domError('NotReadableError');
      return first.stream;
    });
    await openPhotoScreen();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Turn on camera' }));
    });
    const switchCamera = await screen.findByRole('button', { name: 'Switch camera' });
    await act(async () => {
      fireEvent.click(switchCamera);
    });
    expect(screen.getByRole('alert').textContent).toBe('Failed to switch camera');
    expect(screen.getByRole('button', { name: 'Take photo' })).toBeTruthy();
  });

  it.each([
    ['NotAllowedError', 'Permission denied to access camera. Please reload the page and try again.'],
    ['NotFoundError', 'No camera found. Please ensure your device has a camera.'],
    ['NotReadableError', 'Unable to access camera. Please check your camera settings.'],
  ])('%s shows its message, try again and the file picker', async (name, message) => {
    withCamera(async () => {
      throw domError(name);
    });
    await openPhotoScreen();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Turn on camera' }));
    });
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.getByLabelText('Choose a photo')).toBeTruthy();
  });

  it('offers the file picker straight away in an in-app browser', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (iPhone) Mobile/15E148 Instagram 300.0');
    withCamera(async () => fakeStream().stream);
    await openPhotoScreen();
    const picker = screen.getByLabelText('Choose a photo') as HTMLInputElement;
    expect(picker.type).toBe('file');
    expect(picker.accept).toBe('image/*');
    expect(picker.getAttribute('capture')).toBe('user');
    expect(screen.queryByRole('button', { name: 'Turn on camera' })).toBeNull();
  });

  it('on a computer, the phone that opens the code takes over: this camera stays off, and its job is followed', async () => {
    const getUserMedia = withCamera(async () => fakeStream().stream);
    await openPhotoScreen();
    // The phone is offered beside this computer's own first step.
    await screen.findByRole('heading', { name: 'Use your phone' });
    expect(screen.getByRole('button', { name: 'Turn on camera' })).toBeTruthy();
    await act(async () => phoneSays('connected'));
    expect(screen.getByRole('heading', { name: 'Your phone is connected' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Turn on camera' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Use this computer instead' })).toBeTruthy();
    await act(async () => phoneSays('uploading'));
    expect(screen.getByRole('heading', { name: 'Your photo is on its way' })).toBeTruthy();
    await act(async () => phoneSays('submitted', '00000000-0000-4000-8000-000000000042'));
    expect(currentPath()).toBe('/gb/en/result');
    expect(sessionStore.getState().currentJobId).toBe('00000000-0000-4000-8000-000000000042');
    expect(getUserMedia).not.toHaveBeenCalled();
  });

  it('still hands over to a phone that opens the code while this computer’s camera runs: the camera goes off', async () => {
    const { track, stream } = fakeStream();
    withCamera(async () => stream);
    await openPhotoScreen();
    await screen.findByRole('heading', { name: 'Use your phone' });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Turn on camera' }));
    });
    await screen.findByRole('button', { name: 'Take photo' });
    // Out of sight while the camera runs, but still followed.
    expect(screen.queryByRole('heading', { name: 'Use your phone' })).toBeNull();
    await act(async () => phoneSays('connected'));
    expect(track.stop).toHaveBeenCalled();
    expect(screen.getByRole('heading', { name: 'Your phone is connected' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Take photo' })).toBeNull();
  });

  it('goes back to this computer’s camera when the visitor asks, after a phone connected', async () => {
    withCamera(async () => fakeStream().stream);
    await openPhotoScreen();
    await screen.findByRole('heading', { name: 'Use your phone' });
    await act(async () => phoneSays('connected'));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Use this computer instead' }));
    });
    // Back to this computer: its camera can be turned on again.
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Turn on camera' }));
    });
    expect(await screen.findByRole('button', { name: 'Take photo' })).toBeTruthy();
  });

  it('sends a visitor who has not consented back to the terms acceptance', async () => {
    sessionStore.update({ consentGiven: false });
    await openPhotoScreen();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Curious what you look like as a mosaic?');
  });
});
