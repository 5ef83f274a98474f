import { DEFAULT_CAMPAIGN } from '@selfie-mosaic/campaign';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ArtVariantName } from './art.js';
import { parseHex } from './colour.js';
import { fromArtwork } from './framing.js';
import { loadModels } from './index.js';
import { LAYOUT } from './layout.js';
import { type RenderDetails, renderDetailed } from './render.js';
import { loadFaceApi, readFaces } from './testing/face-api.js';
import { toRgb } from './testing/images.js';
import { closeCrop } from './testing/photos.js';

/**
 * A phone selfie cropped close (480×640, chin near the bottom edge): framing scales the face to
 * its usual size, so the portrait needs more picture than the photo has. Whatever lies beyond the
 * photo is background — campaign pattern — and never a reflection of the visitor.
 */
/** Beyond the photo by more than this (artwork pixels), only pattern and grout may appear. */
const MARGIN = 16;
/** The frame's accent line sits a few pixels inside its border. */
const FRAME_INSET = 6;

/** The grout colour, or a pattern colour under a tile's light (one factor for all three channels). */
function isPatternOrGrout(pixel: number[], pattern: number[][], grout: number[]): boolean {
  if (pixel.every((v, c) => Math.abs(v - (grout[c] as number)) <= 2)) return true;
  return pattern.some((colour) => {
    const channel = [0, 1, 2]
      .filter((c) => (pixel[c] as number) < 255)
      .sort((a, b) => (colour[b] as number) - (colour[a] as number))[0];
    if (channel === undefined || (colour[channel] as number) < 8) return false;
    const light = (pixel[channel] as number) / (colour[channel] as number);
    if (light < 0.8 || light > 1.2) return false;
    return pixel.every((v, c) => Math.abs(v - Math.min(255, (colour[c] as number) * light)) <= 2.5);
  });
}

/** Pixels of the open artwork (inside the frame) lying more than MARGIN beyond the photo's edges. */
function outsidePhoto(result: RenderDetails): number[] {
  const { framing, framedFrom } = result;
  const indices: number[] = [];
  const inset = LAYOUT.border + FRAME_INSET;
  for (let y = inset; y < LAYOUT.height - LAYOUT.band - FRAME_INSET; y++) {
    for (let x = inset; x < LAYOUT.width - inset; x++) {
      const p = fromArtwork(framing, { x: x + 0.5, y: y + 0.5 });
      const beyond = Math.max(-p.x, p.x - framedFrom.width, -p.y, p.y - framedFrom.height) * framing.scale;
      if (beyond > MARGIN) indices.push(y * LAYOUT.width + x);
    }
  }
  return indices;
}

describe('a close crop that leaves the framed portrait short of picture', () => {
  const results = new Map<ArtVariantName, RenderDetails>();

  beforeAll(async () => {
    await Promise.all([loadModels(), loadFaceApi()]);
    const photo = await closeCrop();
    results.set('standard', await renderDetailed(photo));
    results.set('blacklabel', await renderDetailed(photo, { blacklabel: true }));
  });

  it.each(['standard', 'blacklabel'] as const)('%s: paints only campaign pattern beyond the photo', (variant) => {
    const result = results.get(variant) as RenderDetails;
    const outside = outsidePhoto(result);
    // The crop leaves a large share of the canvas without picture (below the chin, to the right).
    expect(outside.length).toBeGreaterThan(LAYOUT.width * LAYOUT.height * 0.15);
    const pattern = DEFAULT_CAMPAIGN.art[variant].pattern.map(parseHex);
    const grout = parseHex(DEFAULT_CAMPAIGN.art[variant].grout);
    const portraitPixels = outside.filter((i) => {
      const pixel = [result.painted[i * 3], result.painted[i * 3 + 1], result.painted[i * 3 + 2]] as number[];
      return !isPatternOrGrout(pixel, pattern, grout);
    });
    expect(portraitPixels.length, 'pixels beyond the photo not in pattern or grout colours').toBe(0);
    const portraitTiles = new Set(
      outside.map((i) => result.labels[i] as number).filter((t) => (result.personByTile[t] ?? 0) >= 0.5),
    );
    expect(portraitTiles.size, 'portrait tesserae beyond the photo').toBe(0);
  });

  it.each(['standard', 'blacklabel'] as const)(
    '%s: face-api finds one face and no upside-down copy',
    async (variant) => {
      const result = results.get(variant) as RenderDetails;
      const art = await toRgb(result.jpeg);
      const faces = await readFaces(art.data, art.width, art.height);
      expect(faces).toHaveLength(1);
      const box = faces[0]?.box ?? { x: 0, y: 0, width: 0, height: 0 };
      const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      // It is the visitor's, where the framing put it.
      expect(Math.abs(centre.x - result.framing.target.x)).toBeLessThan(80);
      // A photo reflected beyond its bottom edge shows the face again upside down. Turned over, the
      // artwork may show the visitor's own face (SSD sometimes reads it upside down), nothing else.
      const turned = await toRgb(await sharp(result.jpeg).rotate(180).toBuffer());
      for (const other of await readFaces(turned.data, turned.width, turned.height)) {
        const x = LAYOUT.width - (other.box.x + other.box.width / 2);
        const y = LAYOUT.height - (other.box.y + other.box.height / 2);
        expect(Math.hypot(x - centre.x, y - centre.y), 'an upside-down face away from the visitor').toBeLessThan(
          box.width / 2,
        );
      }
    },
  );
});
