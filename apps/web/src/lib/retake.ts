/**
 * Navigation state of the photo screen opened by "Take a new photo" after a refusal: the visitor has
 * turned the camera on before and asks for another picture, so the screen opens on the live camera
 * instead of the permission step.
 */
export const RETAKE_STATE = { retake: true } as const;

export function isRetake(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { retake?: unknown }).retake === true;
}
