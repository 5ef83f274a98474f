/**
 * Some in-app browsers we do not recognise answer a camera request never: no prompt, no error. After this
 * long the visitor gets the same choice as in a known in-app browser (docs/product.md#photo).
 */
export const CAMERA_START_TIMEOUT_MS = 10_000;

export class CameraTimeoutError extends Error {
  override name = 'CameraTimeoutError';
  constructor() {
    super('The camera did not start in time');
  }
}

export const isCameraTimeout = (error: unknown): boolean => error instanceof CameraTimeoutError;

/**
 * `start`, or a CameraTimeoutError once `ms` have passed without it settling. A camera that turns up after
 * all is handed to `onLate` (to be stopped: the visitor has moved on, and its light must not stay on).
 */
export function withCameraTimeout(
  start: Promise<void>,
  onLate: () => void,
  ms: number = CAMERA_START_TIMEOUT_MS,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      reject(new CameraTimeoutError());
    }, ms);
    start.then(
      () => {
        clearTimeout(timer);
        if (timedOut) onLate();
        else resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!timedOut) reject(error);
      },
    );
  });
}
