import type { ArtworkFormat, ShareFormat } from '@selfie-mosaic/contract';

/** The download page's query parameter carrying the format chosen on the result screen. */
export const FORMAT_PARAM = 'format';

/** The URL of the chosen picture: the story version when chosen (or its clip) and known, else the 4:5 post. */
export function formatUrl(images: { processedImage: string; storyImage: string | null }, format: ShareFormat): string {
  return format !== 'post' && images.storyImage ? images.storyImage : images.processedImage;
}

/**
 * The format a download page address asks for (`?format=story`); the post otherwise. The page offers
 * the pictures only: a clip made in the browser has no address to save from there.
 */
export function formatFromSearch(search: string): ArtworkFormat {
  return new URLSearchParams(search).get(FORMAT_PARAM) === 'story' ? 'story' : 'post';
}
