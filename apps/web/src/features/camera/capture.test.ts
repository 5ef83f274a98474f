import { UPLOAD_LIMITS } from '@selfie-mosaic/contract';
import { describe, expect, it } from 'vitest';
import { fitWithin } from './capture';

describe('downscaling before upload', () => {
  it('brings the long side down to the client limit, keeping the aspect ratio', () => {
    expect(UPLOAD_LIMITS.clientMaxSide).toBe(1600);
    expect(fitWithin(4032, 3024)).toEqual({ width: 1600, height: 1200 });
    expect(fitWithin(3000, 4000)).toEqual({ width: 1200, height: 1600 });
  });

  it('never upscales a small photo', () => {
    expect(fitWithin(640, 480)).toEqual({ width: 640, height: 480 });
  });
});
