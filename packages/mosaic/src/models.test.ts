import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { RgbImage } from './decode.js';
import { loadHuman, readModelArtifacts, SELFIE_MODEL, segmentPerson } from './models.js';
import { closeCrop, PORTRAIT_NAMES, portrait } from './testing/photos.js';

/** A photo squeezed to the selfie model's 256×256, as the segment stage hands it over. */
async function modelInput(photo: Buffer): Promise<RgbImage> {
  const data = await sharp(photo).resize(256, 256, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  return { data: new Uint8Array(data), width: 256, height: 256 };
}

describe('segmentPerson with the fused selfie model', () => {
  it('paints the mask of the model as published, to within one step in 255 on a few pixels', async () => {
    const human = await loadHuman();
    const published = await human.tf.loadGraphModel({
      load: () => readModelArtifacts(human.tf, SELFIE_MODEL, { fused: false }),
    });
    const photos = [...(await Promise.all(PORTRAIT_NAMES.map(portrait))), await closeCrop()];
    let moved = 0;
    let largest = 0;
    let values = 0;
    for (const photo of photos) {
      const image = await modelInput(photo);
      const fused = await segmentPerson(image);
      const reference = await segmentPerson(image, published);
      for (let i = 0; i < fused.length; i++) {
        const step = Math.abs((fused[i] as number) - (reference[i] as number));
        largest = Math.max(largest, step);
        if (step) moved++;
      }
      values += fused.length;
    }
    expect(largest).toBeLessThanOrEqual(1);
    // Summing the bias first rounds differently now and then; a wrong fusion moves most of the mask.
    expect(moved / values).toBeLessThan(1e-4);
  });
});
