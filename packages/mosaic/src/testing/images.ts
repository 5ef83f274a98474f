import sharp from 'sharp';

/** Decodes a JPEG to RGB. */
export async function toRgb(jpeg: Uint8Array): Promise<{ data: Uint8Array; width: number; height: number }> {
  const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

/** Luma of an RGB image reduced by area averaging to the given size. */
export async function reducedLuma(
  rgb: Uint8Array,
  width: number,
  height: number,
  to: [number, number],
): Promise<Float32Array> {
  const grey = await sharp(rgb, { raw: { width, height, channels: 3 } })
    .resize(to[0], to[1], { fit: 'fill', kernel: 'linear' })
    .greyscale()
    .raw()
    .toBuffer();
  return Float32Array.from(grey);
}

/** Photos with no face at all, which the engine must refuse. */
export async function faceless(kind: 'gradient' | 'noise' | 'object' | 'animal'): Promise<Buffer> {
  const width = 800;
  const height = 1000;
  if (kind === 'noise') {
    const noise = new Uint8Array(width * height * 3);
    let state = 12345;
    for (let i = 0; i < noise.length; i++) {
      state = (state * 1103515245 + 12345) >>> 0;
      noise[i] = state >>> 24;
    }
    return sharp(noise, { raw: { width, height, channels: 3 } })
      .jpeg()
      .toBuffer();
  }
  const svg = {
    gradient: `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f4c89a"/><stop offset="1" stop-color="#35506b"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>`,
    // A still life: a vase with a flower on a table.
    object: `<rect width="100%" height="100%" fill="#d9d2c5"/><rect y="700" width="800" height="300" fill="#8a5a3b"/>
      <path d="M330 700 C250 600 280 480 360 430 L440 430 C520 480 550 600 470 700 Z" fill="#2f6f8f"/>
      <ellipse cx="400" cy="430" rx="45" ry="12" fill="#1f4f66"/><path d="M400 430 C395 330 410 260 400 200" stroke="#3f7a3a" stroke-width="10" fill="none"/>
      <circle cx="400" cy="190" r="55" fill="#d8434f"/><circle cx="400" cy="190" r="18" fill="#f2c14e"/>`,
    // A cat: ears, whiskers and round eyes, which must not pass for a person.
    animal: `<rect width="100%" height="100%" fill="#9fb8c9"/>
      <path d="M220 330 L260 130 L380 280 Z M580 330 L540 130 L420 280 Z" fill="#e0913a"/>
      <ellipse cx="400" cy="430" rx="230" ry="190" fill="#e89a45"/><ellipse cx="400" cy="760" rx="260" ry="240" fill="#e89a45"/>
      <ellipse cx="320" cy="400" rx="38" ry="46" fill="#c9e265"/><ellipse cx="480" cy="400" rx="38" ry="46" fill="#c9e265"/>
      <ellipse cx="320" cy="400" rx="10" ry="40" fill="#111"/><ellipse cx="480" cy="400" rx="10" ry="40" fill="#111"/>
      <path d="M380 480 L420 480 L400 505 Z" fill="#d86a7a"/>
      <path d="M400 505 C390 530 360 535 350 520 M400 505 C410 530 440 535 450 520" stroke="#5a3a20" stroke-width="5" fill="none"/>
      <path d="M300 500 L150 480 M300 515 L150 530 M500 500 L650 480 M500 515 L650 530" stroke="#fff" stroke-width="3"/>`,
  }[kind];
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${svg}</svg>`))
    .jpeg()
    .toBuffer();
}
