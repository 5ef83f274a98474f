import { decodeLayingPlan, type LayingPlan } from '@selfie-mosaic/contract';

export interface RevealAssets {
  plan: LayingPlan;
  /** The artwork, decoded: the page's own <img> after it loaded, so the JPEG is fetched once. */
  picture: CanvasImageSource;
  /** Frees the decoded picture. */
  release(): void;
}

/** The laying plan (the browser undoes its gzip) and the decoded artwork; rejects when either fails. */
export async function loadRevealAssets(
  planUrl: string,
  image: HTMLImageElement,
  signal: AbortSignal,
): Promise<RevealAssets> {
  const [plan, picture] = await Promise.all([fetchPlan(planUrl, signal), decoded(image)]);
  return {
    plan,
    picture,
    release: () => {
      if ('close' in picture) picture.close();
    },
  };
}

async function fetchPlan(url: string, signal: AbortSignal): Promise<LayingPlan> {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`the laying plan answered ${response.status}`);
  return decodeLayingPlan(new Uint8Array(await response.arrayBuffer()));
}

/** An ImageBitmap stays decoded for as long as it is drawn from; an <img> may be decoded again. */
async function decoded(image: HTMLImageElement): Promise<CanvasImageSource> {
  await image.decode();
  return typeof createImageBitmap === 'function' ? createImageBitmap(image) : image;
}
