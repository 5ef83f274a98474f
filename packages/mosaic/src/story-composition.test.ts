import { STORY_ARTWORK } from '@selfie-mosaic/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { toArtwork } from './framing.js';
import { loadModels } from './index.js';
import { LANDMARK_GROUPS } from './landmarks.js';
import { LAYOUT, STORY_LAYOUT } from './layout.js';
import { type RenderDetails, renderDetailed } from './render.js';
import { closeCrop, PORTRAIT_NAMES, portrait } from './testing/photos.js';

/**
 * The story is one composition: the mosaic and its pattern run through the whole 9:16 frame, with
 * no straight seam across it, and the face is the 4:5's own.
 */

/** A colour step this sharp (largest channel difference) between a pixel and the one two rows up is an edge. */
const JUMP = 40;
/** A row where more than this share of the columns jump at once is a straight seam across the picture. */
const SEAM_SHARE = 0.5;

/** Per row of the story's window, the share of its columns whose colour jumps from two rows above. */
function jumpShares(rgb: Uint8Array): { row: number; share: number }[] {
  const { width, height } = STORY_ARTWORK;
  const { border } = LAYOUT;
  const shares: { row: number; share: number }[] = [];
  for (let y = border + 2; y < height - border; y++) {
    let jumps = 0;
    for (let x = border; x < width - border; x++) {
      const i = (y * width + x) * 3;
      const j = i - 2 * width * 3;
      const d = Math.max(
        Math.abs((rgb[i] as number) - (rgb[j] as number)),
        Math.abs((rgb[i + 1] as number) - (rgb[j + 1] as number)),
        Math.abs((rgb[i + 2] as number) - (rgb[j + 2] as number)),
      );
      if (d > JUMP) jumps++;
    }
    shares.push({ row: y, share: jumps / (width - 2 * border) });
  }
  return shares;
}

const photos = [
  ...PORTRAIT_NAMES.map((name) => ({ name, load: () => portrait(name) })),
  { name: 'close-crop', load: closeCrop },
];

describe.each(photos)('story of $name as one composition', ({ name, load }) => {
  const renders: Record<'standard' | 'blacklabel', RenderDetails | undefined> = {
    standard: undefined,
    blacklabel: undefined,
  };

  beforeAll(async () => {
    await loadModels();
    const photo = await load();
    renders.standard = await renderDetailed(photo, { story: true });
    renders.blacklabel = await renderDetailed(photo, { story: true, blacklabel: true });
  });

  it.each(['standard', 'blacklabel'] as const)('%s: has no straight seam across the frame', (variant) => {
    const detail = renders[variant];
    if (!detail) throw new Error(`no ${variant} render of ${name}`);
    const seams = jumpShares(detail.storyPainted).filter(({ share }) => share > SEAM_SHARE);
    expect(seams, 'rows where most columns jump at once').toEqual([]);
  });

  it.each(['standard', 'blacklabel'] as const)('%s: shows the face exactly as the 4:5 does', (variant) => {
    const detail = renders[variant];
    if (!detail) throw new Error(`no ${variant} render of ${name}`);
    // The face's box from every landmark the engine found, in artwork pixels.
    let left = Number.POSITIVE_INFINITY;
    let top = Number.POSITIVE_INFINITY;
    let right = 0;
    let bottom = 0;
    for (const group of LANDMARK_GROUPS) {
      const points = detail.face.landmarks[group];
      for (let i = 0; i < points.length; i += 2) {
        const p = toArtwork(detail.framing, { x: points[i] as number, y: points[i + 1] as number });
        left = Math.min(left, p.x);
        top = Math.min(top, p.y);
        right = Math.max(right, p.x);
        bottom = Math.max(bottom, p.y);
      }
    }
    const x0 = Math.max(LAYOUT.border, Math.floor(left));
    const x1 = Math.min(LAYOUT.width - LAYOUT.border, Math.ceil(right));
    const y0 = Math.max(LAYOUT.border, Math.floor(top));
    const y1 = Math.min(LAYOUT.height - LAYOUT.band, Math.ceil(bottom));
    expect(x1 - x0).toBeGreaterThan(200);
    expect(y1 - y0).toBeGreaterThan(200);
    let differ = 0;
    for (let y = y0; y < y1; y++) {
      const post = detail.painted.subarray((y * LAYOUT.width + x0) * 3, (y * LAYOUT.width + x1) * 3);
      const storyRow = (y + STORY_LAYOUT.offset) * STORY_LAYOUT.width;
      const story = detail.storyPainted.subarray((storyRow + x0) * 3, (storyRow + x1) * 3);
      if (!Buffer.from(post).equals(Buffer.from(story))) differ++;
    }
    expect(differ, 'rows of the face that differ from the 4:5').toBe(0);
  });
});
