import { MESSAGES } from '@selfie-mosaic/contract';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { messageText } from './messages';

const t = ((key: string) => `«${key}»`) as unknown as TFunction;

describe('messageText', () => {
  it('translates refusal codes, message keys and the English text of a message', () => {
    expect(messageText(t, 'no_face')).toBe('«messages.noFace»');
    expect(messageText(t, 'consentFailed')).toBe('«messages.consentFailed»');
    expect(messageText(t, MESSAGES.processingFailed)).toBe('«messages.processingFailed»');
  });

  it('shows any other server message as it came', () => {
    expect(messageText(t, 'The photo must be a JPEG, PNG, WebP or HEIC image')).toBe(
      'The photo must be a JPEG, PNG, WebP or HEIC image',
    );
  });
});
