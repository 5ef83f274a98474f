import { ARTWORK_FORMATS, type ArtworkFormat, artworkFileName } from '@selfie-mosaic/contract';
import { campaign } from '../../lib/campaign';

export type ShareOutcome = 'shared' | 'cancelled' | 'unsupported';

interface ShareNavigator {
  share?: (data: ShareData) => Promise<void>;
  canShare?: (data: ShareData) => boolean;
}

/** Fetches the artwork as a File ahead of the tap: share() must run inside the tap's user activation. */
export async function fetchArtworkFile(
  url: string,
  fetcher: typeof fetch = fetch,
  format: ArtworkFormat = 'post',
): Promise<File> {
  const response = await fetcher(url);
  if (!response.ok) throw new Error(`artwork answered ${response.status}`);
  const blob = await response.blob();
  const name = artworkFileName(campaign.brand.downloadFileName, format);
  return new File([blob], name, { type: blob.type || 'image/jpeg' });
}

/**
 * Both pictures that could be fetched, by URL (a failed one is left out: its share falls back to the link).
 * A null story is a job saved before story versions existed.
 */
export async function fetchArtworkFiles(
  urls: { post: string; story: string | null },
  fetcher: typeof fetch = fetch,
): Promise<Map<string, File>> {
  const files = new Map<string, File>();
  await Promise.all(
    ARTWORK_FORMATS.map(async (format) => {
      const url = urls[format];
      if (!url) return;
      const file = await fetchArtworkFile(url, fetcher, format).catch(() => undefined);
      if (file) files.set(url, file);
    }),
  );
  return files;
}

/**
 * Shares the artwork file through the Web Share API. The image goes with the share title
 * (docs/product.md#download-and-share) but without the text: several share targets (messengers, Instagram) keep only
 * the text and drop the file when both are present, and the picture is the point. The text goes along only when the
 * device cannot share files at all and shares the artwork's link instead.
 */
export async function shareArtwork(
  file: File | null,
  url: string,
  nav: ShareNavigator = globalThis.navigator as ShareNavigator,
): Promise<ShareOutcome> {
  if (typeof nav.share !== 'function') return 'unsupported';
  let data: ShareData | null = null;
  if (file && nav.canShare?.({ files: [file] })) data = { files: [file], title: campaign.brand.share.title };
  else if (!file) data = { title: campaign.brand.share.title, text: campaign.brand.share.text, url };
  if (!data) return 'unsupported';
  try {
    await nav.share(data);
    return 'shared';
  } catch (error) {
    if ((error as { name?: string }).name === 'AbortError') return 'cancelled';
    return 'unsupported';
  }
}

/** Whether a share button makes sense on this device at all. */
export function canShareFiles(nav: ShareNavigator = globalThis.navigator as ShareNavigator): boolean {
  return typeof nav.share === 'function' && typeof nav.canShare === 'function';
}
