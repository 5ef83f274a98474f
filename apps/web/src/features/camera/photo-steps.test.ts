import { describe, expect, it } from 'vitest';
import { initialPhotoState, type PhotoEvent, type PhotoState, photoReducer, photoView } from './photo-steps';

const photo = { blob: new Blob(['jpeg']), url: 'blob:photo' };

function run(state: PhotoState, ...events: PhotoEvent[]): PhotoState {
  return events.reduce(photoReducer, state);
}

const withCamera = initialPhotoState(true, false);
const withoutCamera = initialPhotoState(false, false);

describe('the photo screen’s steps', () => {
  it('starts with the camera off, or opening it at once when the visitor asked to take a new photo', () => {
    expect(withCamera.stage).toBe('permission');
    expect(initialPhotoState(true, true).stage).toBe('starting');
    expect(photoView(withCamera).heading).toBe('photo.permissionHeading');
  });

  it('goes from the live preview through the countdown to the review and the upload', () => {
    const live = run(withCamera, { type: 'openCamera' }, { type: 'cameraOpened' });
    expect(photoView(live)).toMatchObject({ heading: 'photo.positionHeading', showVideo: true, showPhoto: false });
    const counting = run(live, { type: 'takePhoto' });
    expect(counting.stage).toBe('countdown');
    // The coach's "ready" arriving again during the countdown does not restart it.
    expect(run(counting, { type: 'takePhoto' })).toBe(counting);
    const review = run(counting, { type: 'photoTaken', photo });
    expect(photoView(review)).toMatchObject({ heading: 'photo.reviewHeading', showVideo: false, showPhoto: true });
    expect(run(review, { type: 'upload' }).stage).toBe('uploading');
  });

  it('goes back to the preview when the countdown ends before the camera gave a frame', () => {
    const counting = run(withCamera, { type: 'openCamera' }, { type: 'cameraOpened' }, { type: 'takePhoto' });
    expect(run(counting, { type: 'noFrame' }).stage).toBe('live');
  });

  it('shows why the camera failed, and offers the in-app way out only when it never answered', () => {
    const denied = run(
      withCamera,
      { type: 'openCamera' },
      { type: 'cameraFailed', message: 'messages.cameraPermissionDenied', timedOut: false },
    );
    expect(denied).toMatchObject({
      stage: 'cameraError',
      message: 'messages.cameraPermissionDenied',
      cameraStuck: false,
    });
    const stuck = run(
      withCamera,
      { type: 'openCamera' },
      { type: 'cameraFailed', message: 'photo.inApp.timeout', timedOut: true },
    );
    expect(stuck.cameraStuck).toBe(true);
    // Trying again clears the message.
    expect(run(stuck, { type: 'openCamera' })).toMatchObject({ stage: 'starting', message: null });
  });

  it('keeps the preview when a camera switch fails, with the message, until the camera is lost', () => {
    const live = run(withCamera, { type: 'openCamera' }, { type: 'cameraOpened' });
    const failed = run(live, { type: 'switchFailed' });
    expect(failed).toMatchObject({ stage: 'live', message: 'messages.cameraSwitchFailed' });
    expect(run(failed, { type: 'switched' }).message).toBeNull();
    expect(run(failed, { type: 'cameraLost' }).stage).toBe('cameraError');
  });

  it('lets a failed upload be sent again, but sends a session without consent back to the start', () => {
    const sending = run(withCamera, { type: 'photoTaken', photo }, { type: 'upload' });
    const failed = run(sending, { type: 'uploadFailed', code: 'network', message: 'errors.network' });
    expect(failed).toMatchObject({ stage: 'uploadFailed', message: 'errors.network', photo });
    expect(run(failed, { type: 'upload' }).stage).toBe('uploading');
    const lost = run(sending, { type: 'uploadFailed', code: 'noConsent', message: 'errors.noConsent' });
    expect(lost.stage).toBe('consentLost');
    expect(photoView(lost).heading).toBe('curious.title');
    expect(run(lost, { type: 'upload' })).toBe(lost);
  });

  it('does not send without a photo', () => {
    expect(run(withCamera, { type: 'upload' })).toBe(withCamera);
  });

  it('redoes with the camera that is still live, or opens it again', () => {
    const review = run(withCamera, { type: 'photoTaken', photo });
    expect(run(review, { type: 'redo', cameraLive: true })).toMatchObject({ stage: 'live', photo: null });
    expect(run(review, { type: 'redo', cameraLive: false })).toMatchObject({ stage: 'starting', photo: null });
  });

  it('without a live camera, offers the file picker until a photo is chosen', () => {
    expect(photoView(withoutCamera)).toMatchObject({ heading: 'photo.title', pickerOnly: true, phoneOffered: true });
    const review = run(withoutCamera, { type: 'photoTaken', photo });
    expect(photoView(review)).toMatchObject({ pickerOnly: false, showPhoto: true, phoneOffered: false });
    expect(run(review, { type: 'redo', cameraLive: false })).toMatchObject({ stage: 'review', photo: null });
  });

  it('offers the phone beside the first step and after a camera error, never while a photo is on its way', () => {
    expect(photoView(withCamera).phoneOffered).toBe(true);
    const live = run(withCamera, { type: 'openCamera' }, { type: 'cameraOpened' });
    expect(photoView(live).phoneOffered).toBe(false);
    const failed = run(withCamera, { type: 'cameraFailed', message: 'messages.cameraNotFound', timedOut: false });
    expect(photoView(failed).phoneOffered).toBe(true);
    const sending = run(withCamera, { type: 'photoTaken', photo }, { type: 'upload' });
    expect(photoView(sending).phoneOffered).toBe(false);
  });

  it('hands over to the phone: the picture here goes, and a late camera answer does not bring it back', () => {
    const live = run(withCamera, { type: 'openCamera' }, { type: 'cameraOpened' }, { type: 'photoTaken', photo });
    const phone = run(live, { type: 'phoneConnected' });
    expect(phone).toMatchObject({ stage: 'phone', photo: null, message: null });
    expect(photoView(phone)).toMatchObject({ showVideo: false, showPhoto: false, phoneOffered: true });
    expect(run(phone, { type: 'cameraFailed', message: 'messages.cameraUnavailable', timedOut: false })).toBe(phone);
    expect(run(phone, { type: 'photoTaken', photo })).toBe(phone);
    // The visitor changes their mind: back to this computer's first step.
    expect(run(phone, { type: 'useComputer' })).toEqual(withCamera);
  });

  it('does not give a photo being sent up for the phone', () => {
    const sending = run(withCamera, { type: 'photoTaken', photo }, { type: 'upload' });
    expect(run(sending, { type: 'phoneConnected' })).toBe(sending);
  });
});
