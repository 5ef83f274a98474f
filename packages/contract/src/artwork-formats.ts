import { ARTWORK } from './constants.js';

/*
 * The artwork's two formats. Apart from the other constants so that only the screens showing an
 * artwork load them, not the start screen.
 */

/** The two pictures of every artwork: the 4:5 post and the 9:16 story version. */
export const ARTWORK_FORMATS = ['post', 'story'] as const;
export type ArtworkFormat = (typeof ARTWORK_FORMATS)[number];

export const STORY_ARTWORK = { width: 1080, height: 1920, maxBytes: ARTWORK.maxBytes, safeMargin: 250 } as const;

/** The file name a picture is saved or shared under: the campaign's name, with "-story" for the story version. */
export function artworkFileName(campaignName: string, format: ArtworkFormat): string {
  if (format === 'post') return campaignName;
  const dot = campaignName.lastIndexOf('.');
  return dot > 0 ? `${campaignName.slice(0, dot)}-story${campaignName.slice(dot)}` : `${campaignName}-story`;
}
