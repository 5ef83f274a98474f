import type { TFunction } from 'i18next';
import { ApiRequestError, errorCodeOf } from '../../lib/api-error';
import { messageText } from '../../lib/messages';

/** The catalogue's sentence for a failure, by its code; anything that is not an API answer is ours. */
export function errorText(t: TFunction, error: unknown): string {
  return messageText(t, errorCodeOf(error) ?? 'internal');
}

/** The session cookie expired or was cleared while the dashboard was open. */
export function isSignedOut(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 401;
}
