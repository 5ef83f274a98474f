import type { ArtworkFormat } from '@selfie-mosaic/contract';

/** The download page's query parameter carrying the format chosen on the result screen. */
export const FORMAT_PARAM = 'format';

/** The URL of the chosen picture: the story version when chosen and known, else the 4:5 post. */
export function formatUrl(
  images: { processedImage: string; storyImage: string | null },
  format: ArtworkFormat,
): string {
  return format === 'story' && images.storyImage ? images.storyImage : images.processedImage;
}

/** The format a download page address asks for (`?format=story`); the post otherwise. */
export function formatFromSearch(search: string): ArtworkFormat {
  return new URLSearchParams(search).get(FORMAT_PARAM) === 'story' ? 'story' : 'post';
}
