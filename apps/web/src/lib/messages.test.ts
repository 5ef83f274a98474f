import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { messageText } from './messages';

const t = ((key: string) => `«${key}»`) as unknown as TFunction;

describe('messageText', () => {
  it('translates refusal codes and visitor message keys from `messages`', () => {
    expect(messageText(t, 'no_face')).toBe('«messages.noFace»');
    expect(messageText(t, 'consentFailed')).toBe('«messages.consentFailed»');
    expect(messageText(t, 'processingFailed')).toBe('«messages.processingFailed»');
  });

  it('translates API and web-side error codes from `errors`', () => {
    expect(messageText(t, 'unsupportedMedia')).toBe('«errors.unsupportedMedia»');
    expect(messageText(t, 'noConsent')).toBe('«errors.noConsent»');
    expect(messageText(t, 'network')).toBe('«errors.network»');
  });

  it('never shows English text it is handed, only a translated fault on our side', () => {
    expect(messageText(t, 'The photo must be a JPEG, PNG, WebP or HEIC image')).toBe('«errors.internal»');
    expect(messageText(t, 'Processing failed')).toBe('«errors.internal»');
  });
});
