import { describe, expect, it } from 'vitest';
import {
  decodeLayingPlan,
  encodeLayingPlan,
  IN_POST,
  IN_STORY,
  LAYING_PLAN_VERSION,
  type LayingPlan,
  LayingPlanError,
} from './laying-plan.js';

function plan(): LayingPlan {
  return {
    width: 1080,
    height: 1350,
    story: { width: 1080, height: 1920, offset: 272 },
    windows: {
      post: { left: 28, top: 28, right: 1052, bottom: 1254 },
      story: { left: 28, top: 28, right: 1052, bottom: 1892 },
      plaque: { left: 300, top: 1500, right: 780, bottom: 1580 },
    },
    grout: [240, 232, 220],
    palette: Uint8Array.from([10, 20, 30, 200, 150, 100]),
    count: 2,
    phase: Uint8Array.from([0, 2]),
    formats: Uint8Array.from([IN_POST | IN_STORY, IN_STORY]),
    colour: Uint8Array.from([1, 0]),
    x: Int16Array.from([540, 100]),
    y: Int16Array.from([600, -200]),
    vertexStart: Uint32Array.from([0, 4, 7]),
    vertices: Int8Array.from([-5, -5, 5, -5, 5, 5, -5, 5, 0, -16, 14, 8, -14, 8]),
  };
}

describe('the laying plan', () => {
  it('reads back exactly what was written', () => {
    const read = decodeLayingPlan(encodeLayingPlan(plan()));
    expect(read).toEqual(plan());
  });

  it('refuses bytes that are not a plan, another version, a cut-short plan or trailing bytes', () => {
    const bytes = encodeLayingPlan(plan());
    expect(() => decodeLayingPlan(new TextEncoder().encode('GIF89a and more'))).toThrow('not a laying plan');
    const other = bytes.slice();
    other[4] = LAYING_PLAN_VERSION + 1;
    expect(() => decodeLayingPlan(other)).toThrow(`version ${LAYING_PLAN_VERSION + 1} is not supported`);
    expect(() => decodeLayingPlan(bytes.subarray(0, bytes.length - 1))).toThrow('cut short');
    const longer = new Uint8Array(bytes.length + 1);
    longer.set(bytes);
    expect(() => decodeLayingPlan(longer)).toThrow(LayingPlanError);
  });

  it('refuses a tessera whose colour is not in the palette', () => {
    const wrong = plan();
    wrong.colour[0] = 2;
    expect(() => decodeLayingPlan(encodeLayingPlan(wrong))).toThrow('no palette colour');
  });
});
