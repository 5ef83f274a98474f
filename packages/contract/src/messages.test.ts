import { describe, expect, it } from 'vitest';
import { REFUSALS, refusalMessage } from './errors.js';
import { MESSAGES, queueMessage } from './messages.js';

describe('queueMessage', () => {
  it('says the server is under heavy load while the load flag is set, whatever the position', () => {
    expect(queueMessage(0, true)).toBe('Server is under heavy load, please wait...');
    expect(queueMessage(7, true)).toBe('Server is under heavy load, please wait...');
  });

  it('tells the visitor where the image is', () => {
    expect(queueMessage(0, false)).toBe('Processing your image...');
    expect(queueMessage(1, false)).toBe('Your image is being processed now...');
    expect(queueMessage(2, false)).toBe('You are in queue position 2');
    expect(queueMessage(14, false)).toBe('You are in queue position 14');
  });
});

describe('catalogue', () => {
  it('carries the exact camera and processing messages', () => {
    expect(MESSAGES.cameraPermissionDenied).toBe(
      'Permission denied to access camera. Please reload the page and try again.',
    );
    expect(MESSAGES.cameraNotFound).toBe('No camera found. Please ensure your device has a camera.');
    expect(MESSAGES.cameraUnavailable).toBe('Unable to access camera. Please check your camera settings.');
    expect(MESSAGES.resultNotFound).toBe('Processed image not found or job not completed');
  });

  it('gives every engine refusal a readable message', () => {
    expect(refusalMessage('no_face')).toBe(
      'No face detected. Please ensure your face is clearly visible and well-lit.',
    );
    for (const code of Object.keys(REFUSALS) as (keyof typeof REFUSALS)[]) {
      expect(refusalMessage(code).length).toBeGreaterThan(10);
    }
  });
});
