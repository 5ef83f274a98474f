import { campaign } from '../../lib/campaign';

export type ShareOutcome = 'shared' | 'cancelled' | 'unsupported';

interface ShareNavigator {
  share?: (data: ShareData) => Promise<void>;
  canShare?: (data: ShareData) => boolean;
}

/** Fetches the artwork as a File ahead of the tap: share() must run inside the tap's user activation. */
export async function fetchArtworkFile(url: string, fetcher: typeof fetch = fetch): Promise<File> {
  const response = await fetcher(url);
  if (!response.ok) throw new Error(`artwork answered ${response.status}`);
  const blob = await response.blob();
  return new File([blob], campaign.brand.downloadFileName, { type: blob.type || 'image/jpeg' });
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
