import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { type FaceGeometry, geometryOf } from './face.js';
import { loadModels } from './index.js';
import { LAYOUT } from './layout.js';
import { type Decoded, decode, type Framed, findFace, frame, segment } from './stages.js';
import { portrait } from './testing/photos.js';

describe('the first stages, one by one', () => {
  let decoded: Decoded;
  let framed: Framed;
  beforeAll(async () => {
    await loadModels();
    decoded = await decode(await portrait('sample2'));
    framed = await frame(decoded, await findFace(decoded));
  });

  it('frames the face: eyes level, centred where the layout puts it, at the face width', () => {
    const face = geometryOf(framed.landmarks);
    expect(Math.abs(face.rightEye.y - face.leftEye.y)).toBeLessThan(0.5);
    const eyes = { x: (face.leftEye.x + face.rightEye.x) / 2, y: (face.leftEye.y + face.rightEye.y) / 2 };
    expect((eyes.x + face.mouth.x) / 2).toBeCloseTo(LAYOUT.faceCentreX * LAYOUT.width, 0);
    expect((eyes.y + face.mouth.y) / 2).toBeCloseTo(framed.framing.target.y, 0);
    // Up to 10 % larger where the photo falls short of the canvas.
    expect(face.width).toBeGreaterThanOrEqual(LAYOUT.faceWidth * LAYOUT.width - 0.5);
    expect(face.width).toBeLessThanOrEqual(LAYOUT.faceWidth * LAYOUT.width * 1.1 + 0.5);
    expect(framed.half).toMatchObject({ width: LAYOUT.width / 2, height: LAYOUT.height / 2 });
  });

  it('finds the visitor at the face and not in the top corners', async () => {
    const person = await segment(framed);
    const at = (x: number, y: number) =>
      person.mask[
        Math.floor((y / LAYOUT.height) * person.height) * person.width + Math.floor((x / LAYOUT.width) * person.width)
      ];
    expect(at(framed.framing.target.x, framed.framing.target.y)).toBeGreaterThan(200);
    expect(at(60, 60)).toBeLessThan(50);
    expect(at(LAYOUT.width - 60, 60)).toBeLessThan(50);
  });
});

describe('finding the face in a turned photo', () => {
  const roll = ({ leftEye, rightEye }: FaceGeometry) =>
    (Math.atan2(rightEye.y - leftEye.y, rightEye.x - leftEye.x) * 180) / Math.PI;

  it('reads the head turned by as much as the photo was, to within a degree', async () => {
    await loadModels();
    const photo = await portrait('sample3');
    const upright = roll(await findFace(await decode(photo)));
    for (const turn of [-30, -8, 15]) {
      const turned = await sharp(photo).rotate(turn, { background: '#808080' }).jpeg({ quality: 92 }).toBuffer();
      const found = roll(await findFace(await decode(turned)));
      expect(Math.abs(found - upright - turn), `turned ${turn}°`).toBeLessThan(1);
    }
  });
});
