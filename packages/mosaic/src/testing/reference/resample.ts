/** The JavaScript the engine's WebAssembly `upsampleMask` replaced, kept as the reference its test compares with. */
export function upsampleMask(
  mask: Uint8Array,
  mw: number,
  mh: number,
  width: number,
  height: number,
  out = new Float32Array(width * height),
): Float32Array {
  const sx = mw / width;
  const sy = mh / height;
  // Every row samples the same columns: their indices and weights are worked out once.
  const left = new Int32Array(width);
  const right = new Int32Array(width);
  const along = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    const fx = Math.min(mw - 1, Math.max(0, (x + 0.5) * sx - 0.5));
    const x0 = fx | 0;
    left[x] = x0;
    right[x] = Math.min(mw - 1, x0 + 1);
    along[x] = fx - x0;
  }
  for (let y = 0; y < height; y++) {
    const fy = Math.min(mh - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = fy | 0;
    const top = y0 * mw;
    const bottom = Math.min(mh - 1, y0 + 1) * mw;
    const ay = fy - y0;
    for (let x = 0, o = y * width; x < width; x++, o++) {
      const ax = along[x] as number;
      const x0 = left[x] as number;
      const x1 = right[x] as number;
      const upper = (mask[top + x0] as number) * (1 - ax) + (mask[top + x1] as number) * ax;
      const lower = (mask[bottom + x0] as number) * (1 - ax) + (mask[bottom + x1] as number) * ax;
      out[o] = (upper * (1 - ay) + lower * ay) / 255;
    }
  }
  return out;
}
