import { ARTWORK } from './constants.js';

/*
 * The artwork's formats. Apart from the other constants so that only the screens showing an
 * artwork load them, not the start screen.
 */

/** The two pictures of every artwork: the 4:5 post and the 9:16 story version. */
export const ARTWORK_FORMATS = ['post', 'story'] as const;
export type ArtworkFormat = (typeof ARTWORK_FORMATS)[number];

export const STORY_ARTWORK = { width: 1080, height: 1920, maxBytes: ARTWORK.maxBytes, safeMargin: 250 } as const;

/**
 * What a visitor can save or share: the two pictures, and the story clip, a video of the story being
 * laid that the visitor's browser makes from the laying plan (the server stores no clip).
 */
export const SHARE_FORMATS = [...ARTWORK_FORMATS, 'clip'] as const;
export type ShareFormat = (typeof SHARE_FORMATS)[number];

/**
 * The story clip: the story being laid, then the finished story held a moment, at the story's size.
 * `maxBytes` is what a share target takes without complaint; the encoder's bitrate keeps under it.
 */
export const STORY_CLIP = {
  width: STORY_ARTWORK.width,
  height: STORY_ARTWORK.height,
  frameRate: 30,
  layingMs: 7000,
  holdMs: 1500,
  maxBytes: 6 * 1024 * 1024,
} as const;

/** The clip's containers: MP4 (H.264) where the browser encodes it, WebM (VP9, VP8) where only that. */
export type ClipContainer = 'mp4' | 'webm';

/** The file name a picture is saved or shared under: the campaign's name, with "-story" for the story version. */
export function artworkFileName(campaignName: string, format: ArtworkFormat): string {
  if (format === 'post') return campaignName;
  const dot = campaignName.lastIndexOf('.');
  return dot > 0 ? `${campaignName.slice(0, dot)}-story${campaignName.slice(dot)}` : `${campaignName}-story`;
}

/** The story clip's file name: the story picture's, with the container's extension (`iqos-mosaic-story.mp4`). */
export function clipFileName(campaignName: string, container: ClipContainer): string {
  const story = artworkFileName(campaignName, 'story');
  const dot = story.lastIndexOf('.');
  return `${dot > 0 ? story.slice(0, dot) : story}.${container}`;
}
