import { describe, expect, it } from 'vitest';
import { uploadErrorMessage } from './upload';

describe('upload failure message', () => {
  it("shows the server's error field when there is one", () => {
    expect(uploadErrorMessage({ status: 415, data: { error: 'The photo must be a JPEG' } })).toBe(
      'The photo must be a JPEG',
    );
  });

  it("falls back to 'Failed to upload photo'", () => {
    expect(uploadErrorMessage(new TypeError('Failed to fetch'))).toBe('Failed to upload photo');
    expect(uploadErrorMessage({ data: { error: '  ' } })).toBe('Failed to upload photo');
  });
});
