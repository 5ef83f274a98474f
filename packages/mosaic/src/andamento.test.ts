import { beforeAll, describe, expect, it } from 'vitest';
import { loadModels } from './index.js';
import { renderDetailed } from './render.js';
import { measureRender } from './testing/andamento-measures.js';
import { closeCrop, PORTRAIT_NAMES, portrait } from './testing/photos.js';

/**
 * Does it read as laid by hand? The two figures for the stones, on every test photo: each
 * tessera's long axis within 15° of the contour near strong edges (a Voronoi filter reads 19–21°),
 * and stones cut square (area ÷ minimum bounding rectangle, median ≥ 0.8; the Voronoi cells read
 * 0.73–0.74). Method: README, "How the artwork is measured".
 */
const PHOTOS = [
  ...PORTRAIT_NAMES.map((name) => ({ name, load: () => portrait(name) })),
  { name: 'close-crop', load: closeCrop },
];

describe('the andamento on the test photos', () => {
  beforeAll(() => loadModels(), 60_000);

  it.each(PHOTOS)('$name: stones follow the contours and are cut square', async ({ load }) => {
    const { orientation, rectangularity } = measureRender(await renderDetailed(await load()));
    expect(orientation.median).toBeLessThanOrEqual(15);
    expect(rectangularity.median).toBeGreaterThanOrEqual(0.8);
  });
});
