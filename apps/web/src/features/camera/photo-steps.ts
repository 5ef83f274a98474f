/**
 * The photo screen's steps and what moves between them, in one place: the screen is a view of this
 * state and runs the camera and the upload, which report back as events. Every message is a copy key,
 * translated when shown, so a change of language never leaves an old-language message behind.
 */

export type Stage =
  /** The camera is off until the visitor asks for it. */
  | 'permission'
  | 'starting'
  | 'live'
  | 'countdown'
  /** A photo to check (or, without a live camera, the file picker). */
  | 'review'
  | 'uploading'
  | 'uploadFailed'
  /** The server has no consent for this session: only starting over helps. */
  | 'consentLost'
  | 'cameraError'
  /** The visitor goes on on their phone: the camera here stays off. */
  | 'phone';

export interface Photo {
  blob: Blob;
  url: string;
}

export interface PhotoState {
  stage: Stage;
  photo: Photo | null;
  /** Copy key of the message under the picture. */
  message: string | null;
  /** A camera request that never answered: the in-app browser's way out is offered. */
  cameraStuck: boolean;
  /** Whether this browser can show a live camera at all; fixed for the screen's life. */
  liveCamera: boolean;
}

export type PhotoEvent =
  | { type: 'openCamera' }
  | { type: 'cameraOpened' }
  | { type: 'cameraFailed'; message: string; timedOut: boolean }
  /** The coach saw a good face for long enough, or the visitor tapped the button. */
  | { type: 'takePhoto' }
  /** The countdown ended before the camera gave a frame: back to the preview. */
  | { type: 'noFrame' }
  | { type: 'photoTaken'; photo: Photo }
  | { type: 'switchFailed' }
  | { type: 'switched' }
  /** Neither camera could be opened again after a failed switch. */
  | { type: 'cameraLost' }
  | { type: 'upload' }
  | { type: 'uploadFailed'; code: string; message: string }
  | { type: 'redo'; cameraLive: boolean }
  | { type: 'phoneConnected' }
  | { type: 'useComputer' };

/** Where the screen starts: a visitor sent back by "Take a new photo" asked for the camera already. */
export function initialPhotoState(liveCamera: boolean, retake: boolean): PhotoState {
  return {
    stage: liveCamera ? (retake ? 'starting' : 'permission') : 'review',
    photo: null,
    message: null,
    cameraStuck: false,
    liveCamera,
  };
}

export function photoReducer(state: PhotoState, event: PhotoEvent): PhotoState {
  switch (event.type) {
    case 'openCamera':
      return { ...state, stage: 'starting', message: null };
    case 'cameraOpened':
      return state.stage === 'starting' ? { ...state, stage: 'live' } : state;
    case 'cameraFailed':
      if (state.stage === 'phone') return state;
      return { ...state, stage: 'cameraError', message: event.message, cameraStuck: event.timedOut };
    case 'takePhoto':
      return state.stage === 'live' ? { ...state, stage: 'countdown' } : state;
    case 'noFrame':
      return state.stage === 'countdown' ? { ...state, stage: 'live' } : state;
    case 'photoTaken':
      if (state.stage === 'phone' || state.stage === 'uploading') return state;
      return { ...state, stage: 'review', photo: event.photo };
    case 'switchFailed':
      return { ...state, message: 'messages.cameraSwitchFailed' };
    case 'switched':
      return { ...state, message: null };
    case 'cameraLost':
      return { ...state, stage: 'cameraError' };
    case 'upload':
      if (!state.photo || (state.stage !== 'review' && state.stage !== 'uploadFailed')) return state;
      return { ...state, stage: 'uploading', message: null };
    case 'uploadFailed':
      if (state.stage !== 'uploading') return state;
      return { ...state, stage: event.code === 'noConsent' ? 'consentLost' : 'uploadFailed', message: event.message };
    case 'redo':
      if (!state.liveCamera) return { ...state, photo: null };
      return { ...state, photo: null, stage: event.cameraLive ? 'live' : 'starting', message: null };
    case 'phoneConnected':
      if (state.stage === 'uploading' || state.stage === 'consentLost') return state;
      return { ...state, stage: 'phone', photo: null, message: null, cameraStuck: false };
    case 'useComputer':
      return state.stage === 'phone' ? initialPhotoState(state.liveCamera, false) : state;
  }
}

/** What the screen shows for a state: its heading, which picture, and which ways on. */
export interface PhotoView {
  heading: string;
  showVideo: boolean;
  showPhoto: boolean;
  /** The visitor has no live camera and no photo yet: the file picker is the way on. */
  pickerOnly: boolean;
  /** Whether the phone may be offered beside this step (never once a photo is being sent). */
  phoneOffered: boolean;
}

const HEADINGS: Record<Stage, string> = {
  permission: 'photo.permissionHeading',
  starting: 'photo.permissionHeading',
  live: 'photo.positionHeading',
  countdown: 'photo.getReadyHeading',
  review: 'photo.reviewHeading',
  uploading: 'photo.reviewHeading',
  uploadFailed: 'photo.reviewHeading',
  consentLost: 'curious.title',
  cameraError: 'photo.permissionHeading',
  phone: 'photo.title',
};

export function photoView(state: PhotoState): PhotoView {
  const { stage, photo, liveCamera } = state;
  const pickerOnly = !liveCamera && !photo && stage === 'review';
  return {
    heading: stage === 'review' && !photo ? 'photo.title' : HEADINGS[stage],
    showVideo: stage === 'live' || stage === 'countdown' || stage === 'starting',
    showPhoto: photo !== null && (stage === 'review' || stage === 'uploading' || stage === 'uploadFailed'),
    pickerOnly,
    phoneOffered: stage === 'permission' || stage === 'cameraError' || pickerOnly || stage === 'phone',
  };
}
