import { isRefusalCode, MESSAGES, type MessageKey, REFUSALS } from '@selfie-mosaic/contract';
import type { TFunction } from 'i18next';

const byEnglishText = new Map<string, MessageKey>(
  Object.entries(MESSAGES).map(([key, text]) => [text, key as MessageKey]),
);

function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(MESSAGES, value);
}

/**
 * The visitor-facing text for a stored error: an engine refusal code, a MESSAGES key or the English
 * text of one are translated; any other server message is shown as the server wrote it.
 */
export function messageText(t: TFunction, error: string): string {
  if (isRefusalCode(error)) return t(`messages.${REFUSALS[error]}`);
  if (isMessageKey(error)) return t(`messages.${error}`);
  const key = byEnglishText.get(error);
  return key ? t(`messages.${key}`) : error;
}
