import {
  type ErrorCode,
  isErrorCode,
  isRefusalCode,
  MESSAGES,
  type MessageKey,
  REFUSALS,
  type RefusalCode,
} from '@selfie-mosaic/contract';
import type { TFunction } from 'i18next';

/** What a failure is known by in the app: an engine refusal, a visitor message or an error code. */
export type ProblemCode = RefusalCode | MessageKey | ErrorCode;

function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(MESSAGES, value);
}

/**
 * Where a code's copy lives: refusals and the visitor messages in `messages`, API and web-side error
 * codes in `errors`. Anything else (a code this build does not know yet) reads as a fault on our side.
 */
export function messageKeyOf(code: string): string {
  if (isRefusalCode(code)) return `messages.${REFUSALS[code]}`;
  if (isMessageKey(code)) return `messages.${code}`;
  if (isErrorCode(code)) return `errors.${code}`;
  return 'errors.internal';
}

/** The visitor-facing text of a failure, in the page's language, found by its code alone. */
export function messageText(t: TFunction, code: string): string {
  return t(messageKeyOf(code));
}
