/**
 * Every message a visitor may read (docs/product.md#errors-and-messages), in English.
 * The web app translates them by key; the server sends the English text in `error`/`error_message`.
 */
export const MESSAGES = {
  cameraPermissionDenied: 'Permission denied to access camera. Please reload the page and try again.',
  cameraNotFound: 'No camera found. Please ensure your device has a camera.',
  cameraUnavailable: 'Unable to access camera. Please check your camera settings.',
  cameraSwitchFailed: 'Failed to switch camera',
  downloadFailed: 'Failed to download image. Please try again.',
  resultNotFound: 'Processed image not found or job not completed',
  noFace: 'No face detected. Please ensure your face is clearly visible and well-lit.',
  faceTooSmall: 'Your face is too small in the photo. Please move closer to the camera.',
  multipleFaces: 'More than one face detected. Please make sure only you are in the photo.',
  tooDark: 'The photo is too dark. Please find a brighter spot and try again.',
  unreadableImage: 'The photo could not be read. Please take it again.',
  consentFailed: 'Failed to submit consent',
  uploadFailed: 'Failed to upload photo',
  processingFailed: 'Processing failed',
  renderFailed: 'We could not create your image. Please try again.',
  serverHeavyLoad: 'Server is under heavy load',
} as const;

export type MessageKey = keyof typeof MESSAGES;

/** Queue messages (docs/product.md#progress-and-queue-messages), with `{n}` for the position. */
export const QUEUE_MESSAGES = {
  heavyLoad: 'Server is under heavy load, please wait...',
  processing: 'Processing your image...',
  next: 'Your image is being processed now...',
  position: 'You are in queue position {n}',
} as const;

export type QueueMessageKey = keyof typeof QUEUE_MESSAGES;

/** Which queue message applies: the load flag wins, then position 0, then position 1, else the position. */
export function queueMessageKey(position: number, serverLoad: boolean): QueueMessageKey {
  if (serverLoad) return 'heavyLoad';
  if (position <= 0) return 'processing';
  if (position === 1) return 'next';
  return 'position';
}

export function queueMessage(position: number, serverLoad: boolean): string {
  return QUEUE_MESSAGES[queueMessageKey(position, serverLoad)].replace('{n}', String(position));
}
