import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { openPhoto, type RgbImage } from './decode.js';
import { detectFaces, loadFaceModels, loadHuman, readModelArtifacts, SELFIE_MODEL, segmentPerson } from './models.js';
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

/** A photo as the detect stage gets it: decoded upright at the detectors' size (long side 800 px at most). */
async function detectorInput(photo: Buffer): Promise<RgbImage> {
  return (await openPhoto(photo)).at(800);
}

describe('detectFaces', () => {
  /** How many times FaceMesh reads a face in the photo, and the faces found. */
  async function readings(name: string) {
    const { facemesh } = await loadFaceModels();
    const execute = vi.spyOn(facemesh, 'execute');
    try {
      const faces = await detectFaces(await detectorInput(await portrait(name)));
      return { reads: execute.mock.calls.length, faces: faces.length };
    } finally {
      execute.mockRestore();
    }
  }

  // BlazeFace's eye keypoints tilt sample 6's upright head by 6.8°; cut level, FaceMesh agrees at once.
  it.each(['sample3', 'sample6'])('reads the upright face in %s once', async (name) => {
    expect(await readings(name)).toEqual({ reads: 1, faces: 1 });
  });

  it('reads a head tilted 45° (sample 1) again, turned by its own roll', async () => {
    const { reads, faces } = await readings('sample1');
    expect(faces).toBe(1);
    expect(reads).toBeGreaterThanOrEqual(2);
  });
});
