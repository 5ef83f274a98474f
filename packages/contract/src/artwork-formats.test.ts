import { describe, expect, it } from 'vitest';
import { ARTWORK_FORMATS, artworkFileName, clipFileName, SHARE_FORMATS, STORY_CLIP } from './artwork-formats.js';

describe('artwork file names', () => {
  it('name the post after the campaign and mark the story', () => {
    expect(artworkFileName('iqos-mosaic.jpg', 'post')).toBe('iqos-mosaic.jpg');
    expect(artworkFileName('iqos-mosaic.jpg', 'story')).toBe('iqos-mosaic-story.jpg');
    expect(artworkFileName('mosaic', 'story')).toBe('mosaic-story');
  });

  it('name the clip after the story picture, with its container as the extension', () => {
    expect(clipFileName('iqos-mosaic.jpg', 'mp4')).toBe('iqos-mosaic-story.mp4');
    expect(clipFileName('brand.mosaic.jpg', 'webm')).toBe('brand.mosaic-story.webm');
    expect(clipFileName('mosaic', 'mp4')).toBe('mosaic-story.mp4');
  });
});

describe('the formats a visitor can share', () => {
  it('are the two stored pictures and the clip, which the server never stores', () => {
    expect(SHARE_FORMATS).toEqual([...ARTWORK_FORMATS, 'clip']);
    expect(ARTWORK_FORMATS).not.toContain('clip');
  });

  it('keep the clip at the story’s size and about 6–10 s long', () => {
    expect([STORY_CLIP.width, STORY_CLIP.height]).toEqual([1080, 1920]);
    const seconds = (STORY_CLIP.layingMs + STORY_CLIP.holdMs) / 1000;
    expect(seconds).toBeGreaterThanOrEqual(6);
    expect(seconds).toBeLessThanOrEqual(10);
  });
});
