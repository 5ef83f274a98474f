import { DEFAULT_CAMPAIGN } from '@selfie-mosaic/campaign';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHex } from './colour.js';
import { loadModels } from './index.js';
import { LAYOUT } from './layout.js';
import { type RenderDetails, renderDetailed } from './render.js';
import { descriptorDistance, type FaceReading, loadFaceApi, readFaces } from './testing/face-api.js';
import { reducedLuma, toRgb } from './testing/images.js';
import { PORTRAIT_NAMES, portrait } from './testing/photos.js';
import { ssim } from './testing/ssim.js';

/**
 * Is it still the visitor? An independent detector (face-api: SSD MobileNet, 68 landmarks and a
 * recognition descriptor) reads the framed photo and the artwork and compares them.
 */

/** face-api's 68-point groups the brief names: eyes, nose and mouth. */
const FEATURE_POINTS = [...range(36, 48), ...range(27, 36), ...range(48, 68)];
const REDUCED: [number, number] = [LAYOUT.width / 10, LAYOUT.height / 10];
/** The channel indices of an RGB pixel, typed so indexing a colour triple needs no check. */
const RGB = [0, 1, 2] as const;

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

/** The face nearest a point (the engine centres the visitor's face; neighbours may be in shot). */
function nearest(faces: FaceReading[], x: number, y: number): FaceReading | undefined {
  const distance = (f: FaceReading) => Math.hypot(f.box.x + f.box.width / 2 - x, f.box.y + f.box.height / 2 - y);
  return [...faces].sort((a, b) => distance(a) - distance(b))[0];
}

interface Reading {
  name: string;
  variant: string;
  landmarkError: number;
  ssimPortrait: number;
  ssimFrame: number;
  descriptor: number;
  tiles: number;
}
const report: Reading[] = [];

describe.each(PORTRAIT_NAMES)('artwork of %s', (name) => {
  const results: Record<'standard' | 'blacklabel', RenderDetails | undefined> = {
    standard: undefined,
    blacklabel: undefined,
  };
  let source: FaceReading;

  beforeAll(async () => {
    await Promise.all([loadModels(), loadFaceApi()]);
    const photo = await portrait(name);
    results.standard = await renderDetailed(photo);
    results.blacklabel = await renderDetailed(photo, { blacklabel: true });
    const framed = results.standard.framed;
    const target = results.standard.framing.target;
    const found = nearest(await readFaces(framed.data, framed.width, framed.height), target.x, target.y);
    if (!found) throw new Error(`face-api finds no face in the framed ${name}`);
    source = found;
  });

  it('frames the face: eyes level, centred in the upper half, at a consistent size', () => {
    const mean = (points: number[]) => ({
      x: points.reduce((sum, i) => sum + (source.landmarks[i]?.x ?? 0), 0) / points.length,
      y: points.reduce((sum, i) => sum + (source.landmarks[i]?.y ?? 0), 0) / points.length,
    });
    const left = mean(range(36, 42));
    const right = mean(range(42, 48));
    const tilt = (Math.atan2(right.y - left.y, right.x - left.x) * 180) / Math.PI;
    expect(Math.abs(tilt), 'eye line tilt in degrees').toBeLessThan(4);
    const centre = { x: source.box.x + source.box.width / 2, y: source.box.y + source.box.height / 2 };
    expect(Math.abs(centre.x - LAYOUT.width / 2)).toBeLessThan(LAYOUT.width * 0.08);
    expect(centre.y).toBeGreaterThan(LAYOUT.height * 0.25);
    expect(centre.y).toBeLessThan(LAYOUT.height * 0.5);
    expect(source.box.width / LAYOUT.width).toBeGreaterThan(0.3);
    expect(source.box.width / LAYOUT.width).toBeLessThan(0.5);
  });

  it.each(['standard', 'blacklabel'] as const)('%s: keeps the face where it was and who it is', async (variant) => {
    const result = results[variant] as RenderDetails;
    const art = await toRgb(result.jpeg);
    const face = nearest(
      await readFaces(art.data, art.width, art.height),
      source.box.x + source.box.width / 2,
      source.box.y + source.box.height / 2,
    );
    expect(face, 'face-api finds the face in the artwork').toBeDefined();
    if (!face) return;
    const width = source.box.width;
    const errors = FEATURE_POINTS.map(
      (i) =>
        Math.hypot(
          (face.landmarks[i]?.x ?? Number.NaN) - (source.landmarks[i]?.x ?? 0),
          (face.landmarks[i]?.y ?? Number.NaN) - (source.landmarks[i]?.y ?? 0),
        ) / width,
    );
    const worst = Math.max(...errors);
    expect(worst, 'every eye, nose and mouth landmark within 8 % of the face width').toBeLessThanOrEqual(0.08);

    // SSIM at 1/10 size. The background is replaced by the campaign pattern by design, so the
    // portrait score counts the windows that see the visitor only (≥ 90 % person tiles); the
    // whole-frame score is reported beside it.
    const [w, h] = REDUCED;
    const artwork = await reducedLuma(art.data, art.width, art.height, REDUCED);
    const framed = await reducedLuma(result.framed.data, result.framed.width, result.framed.height, REDUCED);
    const person = new Float32Array(w * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const ax = x * 10 + 5;
        const ay = y * 10 + 5;
        const open =
          ax >= LAYOUT.border &&
          ax < LAYOUT.width - LAYOUT.border &&
          ay >= LAYOUT.border &&
          ay < LAYOUT.height - LAYOUT.band;
        const tile = result.labels[ay * LAYOUT.width + ax] as number;
        person[y * w + x] = open && (result.personByTile[tile] as number) >= 0.5 ? 1 : 0;
      }
    }
    const visitorOnly = (cx: number, cy: number) => {
      let sum = 0;
      for (let y = cy - 5; y <= cy + 5; y++) for (let x = cx - 5; x <= cx + 5; x++) sum += person[y * w + x] as number;
      return sum / 121 >= 0.9;
    };
    const ssimPortrait = ssim(artwork, framed, w, h, visitorOnly);
    const ssimFrame = ssim(artwork, framed, w, h);
    expect(ssimPortrait).toBeGreaterThanOrEqual(0.8);

    const descriptor = await descriptorDistance(face.descriptor, source.descriptor);
    expect(descriptor).toBeGreaterThan(0);
    // face-api calls two faces the same person under 0.6; the artwork is held to 0.5 (issue 14), the
    // margin a stylised portrait needs to stay clearly the visitor.
    expect(descriptor, 'face-recognition distance within the likeness limit').toBeLessThanOrEqual(0.5);
    report.push({ name, variant, landmarkError: worst, ssimPortrait, ssimFrame, descriptor, tiles: result.tiles });
  });

  it('is a few thousand tesserae, each one palette colour under its own light', () => {
    const result = results.standard as RenderDetails;
    expect(result.tiles).toBeGreaterThanOrEqual(2000);
    expect(result.tiles).toBeLessThanOrEqual(8000);
    expect(result.personTiles).toBeGreaterThan(result.tiles / 2);
    const palettes = {
      portrait: DEFAULT_CAMPAIGN.art.portrait.map(parseHex),
      pattern: DEFAULT_CAMPAIGN.art.standard.pattern.map(parseHex),
    };
    // Inside each tile (away from its joints), every pixel is the tile's palette colour times
    // one brightness: the same factor in red, green and blue.
    const { labels, painted, colours, personByTile } = result;
    let checked = 0;
    for (let y = LAYOUT.border + 2; y < LAYOUT.height - LAYOUT.band - 2; y += 7) {
      for (let x = LAYOUT.border + 2; x < LAYOUT.width - LAYOUT.border - 2; x += 7) {
        const i = y * LAYOUT.width + x;
        const t = labels[i] as number;
        const w = LAYOUT.width;
        const around = [i - 2, i - 1, i + 1, i + 2, i - 2 * w, i - w, i + w, i + 2 * w];
        if (around.some((j) => labels[j] !== t)) continue;
        const set = (personByTile[t] as number) >= 0.5 ? palettes.portrait : palettes.pattern;
        const colour = set[colours[t] as number];
        expect(colour).toBeDefined();
        if (!colour) continue;
        const pixel = [painted[i * 3], painted[i * 3 + 1], painted[i * 3 + 2]] as [number, number, number];
        // The brightness factor, read from the strongest channel that did not clip at white.
        const channel = RGB.filter((c) => pixel[c] < 255).sort((a, b) => colour[b] - colour[a])[0];
        if (channel === undefined || colour[channel] < 8) continue;
        const light = pixel[channel] / colour[channel];
        expect(light).toBeGreaterThan(0.75);
        expect(light).toBeLessThan(1.25);
        for (const c of RGB) {
          expect(Math.abs(pixel[c] - Math.min(255, colour[c] * light))).toBeLessThanOrEqual(2.5);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5000);
  });
});

afterAll(() => {
  if (report.length === 0) return;
  const rows = report.map(
    (r) =>
      `${r.name.padEnd(8)} ${r.variant.padEnd(10)} landmarks ≤ ${(r.landmarkError * 100).toFixed(1)} %  SSIM portrait ${r.ssimPortrait.toFixed(3)}  frame ${r.ssimFrame.toFixed(3)}  descriptor ${r.descriptor.toFixed(3)}  tiles ${r.tiles}`,
  );
  console.log(`Artwork quality (face-api):\n${rows.join('\n')}`);
});
