/**
 * Structural similarity (Wang et al. 2004) of two grey images: 11×11 Gaussian window (σ 1.5),
 * K1 0.01, K2 0.03, averaged over the windows whose centre `include` accepts.
 */
export function ssim(
  a: Float32Array,
  b: Float32Array,
  width: number,
  height: number,
  include: (x: number, y: number) => boolean = () => true,
): number {
  const radius = 5;
  const kernel: number[] = [];
  for (let k = -radius; k <= radius; k++) kernel.push(Math.exp(-(k * k) / (2 * 1.5 * 1.5)));
  const norm = kernel.reduce((s, v) => s + v, 0);
  const weights = kernel.map((v) => v / norm);
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  let sum = 0;
  let count = 0;
  for (let y = radius; y < height - radius; y++) {
    for (let x = radius; x < width - radius; x++) {
      if (!include(x, y)) continue;
      let ma = 0;
      let mb = 0;
      let aa = 0;
      let bb = 0;
      let ab = 0;
      for (let j = -radius; j <= radius; j++) {
        for (let i = -radius; i <= radius; i++) {
          const w = (weights[j + radius] as number) * (weights[i + radius] as number);
          const va = a[(y + j) * width + x + i] as number;
          const vb = b[(y + j) * width + x + i] as number;
          ma += w * va;
          mb += w * vb;
          aa += w * va * va;
          bb += w * vb * vb;
          ab += w * va * vb;
        }
      }
      const va = aa - ma * ma;
      const vb = bb - mb * mb;
      const cov = ab - ma * mb;
      sum += ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2));
      count++;
    }
  }
  return count ? sum / count : Number.NaN;
}
