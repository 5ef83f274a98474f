import type { MessageKey } from '@selfie-mosaic/contract';
import { isInAppBrowser } from '../../lib/in-app-browser';

const DENIED = new Set(['NotAllowedError', 'PermissionDeniedError', 'SecurityError']);
const NO_CAMERA = new Set([
  'NotFoundError',
  'DevicesNotFoundError',
  'OverconstrainedError',
  'ConstraintNotSatisfiedError',
]);

/** The visitor message (docs/product.md#errors-and-messages) for a getUserMedia failure, by the DOMException's name. */
export function cameraErrorKey(error: unknown): MessageKey {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  if (typeof name === 'string' && DENIED.has(name)) return 'cameraPermissionDenied';
  if (typeof name === 'string' && NO_CAMERA.has(name)) return 'cameraNotFound';
  return 'cameraUnavailable';
}

/** Whether to offer the live camera, or go straight to the file picker. */
export function canUseLiveCamera(nav: Navigator | undefined = globalThis.navigator): boolean {
  if (!nav) return false;
  if (isInAppBrowser(nav.userAgent)) return false;
  return typeof nav.mediaDevices?.getUserMedia === 'function';
}
