import { IN_POST, IN_STORY, type LayingPlan } from '@selfie-mosaic/contract';

/**
 * A small laying plan shaped like the engine's: square-ish tesserae on a grid inside the 4:5's
 * window, the ring around an oval "face" as the lines, its inside as the figure, the rest as the
 * background; the story shows them all, has rows of its own above and below and a wordmark plaque
 * over them. `cell` sets the
 * tessera size (smaller: more tesserae).
 */
export function syntheticPlan({ cell = 60 } = {}): LayingPlan {
  const width = 1080;
  const height = 1350;
  const story = { width: 1080, height: 1920, offset: 285 };
  const windows = {
    post: { left: 28, top: 28, right: 1052, bottom: 1254 },
    story: { left: 28, top: 28, right: 1052, bottom: 1892 },
    // The story's wordmark plaque, over the mosaic near its foot.
    plaque: { left: 340, top: 1700, right: 740, bottom: 1790 },
  };
  const face = { x: 540, y: 560, rx: 260, ry: 330 };
  const tesserae: { phase: number; formats: number; colour: number; x: number; y: number; key: number }[] = [];
  const half = Math.min(cell / 2, 120);
  for (let y = half - story.offset + 28; y < windows.story.bottom - story.offset; y += cell) {
    for (let x = windows.post.left + half; x < windows.post.right; x += cell) {
      const inPost = y > windows.post.top && y < windows.post.bottom;
      const d = Math.hypot((x - face.x) / face.rx, (y - face.y) / face.ry);
      const phase = Math.abs(d - 1) < 0.12 ? 0 : d < 1 ? 1 : 2;
      const angle = Math.atan2(y - face.y, x - face.x);
      // Lines around the oval, the figure from the outline inward, the background outward.
      const key = phase === 0 ? angle : phase === 1 ? -d : d;
      tesserae.push({
        phase,
        formats: inPost ? IN_POST | IN_STORY : IN_STORY,
        colour: (phase * 2 + ((x / cell + y / cell) & 1)) % 6,
        x: Math.round(x),
        y: Math.round(y),
        key,
      });
    }
  }
  tesserae.sort((a, b) => a.phase - b.phase || a.key - b.key);
  const count = tesserae.length;
  const r = Math.round(half - 2);
  const square = [-r, -r, r, -r, r, r, -r, r];
  return {
    width,
    height,
    story,
    windows,
    grout: [236, 228, 214],
    palette: Uint8Array.from([20, 40, 45, 60, 80, 85, 180, 120, 90, 210, 160, 120, 0, 150, 140, 40, 190, 180]),
    count,
    phase: Uint8Array.from(tesserae, (t) => t.phase),
    formats: Uint8Array.from(tesserae, (t) => t.formats),
    colour: Uint8Array.from(tesserae, (t) => t.colour),
    x: Int16Array.from(tesserae, (t) => t.x),
    y: Int16Array.from(tesserae, (t) => t.y),
    vertexStart: Uint32Array.from({ length: count + 1 }, (_, t) => t * 4),
    vertices: Int8Array.from({ length: count * 8 }, (_, i) => square[i % 8] as number),
  };
}
