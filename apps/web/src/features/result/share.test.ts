import { describe, expect, it, vi } from 'vitest';
import { campaign } from '../../lib/campaign';
import { fetchArtworkFiles, shareArtwork } from './share';

const file = new File(['jpeg'], 'iqos-mosaic.jpg', { type: 'image/jpeg' });

describe('sharing the artwork', () => {
  it('shares the file with the title where files can be shared', async () => {
    const share = vi.fn(async () => undefined);
    const outcome = await shareArtwork(file, 'https://x/a.jpg', { share, canShare: () => true });
    expect(outcome).toBe('shared');
    expect(share).toHaveBeenCalledWith({ files: [file], title: campaign.brand.share.title });
  });

  it('falls back to download where files cannot be shared or share is missing', async () => {
    const share = vi.fn(async () => undefined);
    expect(await shareArtwork(file, 'https://x/a.jpg', { share, canShare: () => false })).toBe('unsupported');
    expect(await shareArtwork(file, 'https://x/a.jpg', {})).toBe('unsupported');
    expect(share).not.toHaveBeenCalled();
  });

  it('shares the link with title and text when the image could not be fetched', async () => {
    const share = vi.fn(async () => undefined);
    await shareArtwork(null, 'https://x/a.jpg', { share, canShare: () => true });
    expect(share).toHaveBeenCalledWith({
      title: campaign.brand.share.title,
      text: campaign.brand.share.text,
      url: 'https://x/a.jpg',
    });
  });

  it('shares the story clip, a video file made on the page, the same way', async () => {
    const share = vi.fn(async () => undefined);
    const clip = new File(['mp4'], 'iqos-mosaic-story.mp4', { type: 'video/mp4' });
    const canShare = vi.fn((data: ShareData) => data.files?.[0]?.type === 'video/mp4');
    expect(await shareArtwork(clip, 'https://x/a.story.jpg', { share, canShare })).toBe('shared');
    expect(share).toHaveBeenCalledWith({ files: [clip], title: campaign.brand.share.title });
    expect(canShare).toHaveBeenCalledWith({ files: [clip] });
  });

  it('treats a dismissed share sheet as cancelled, not as a failure', async () => {
    const share = vi.fn(async () => {
      throw Object.assign(new Error('abort'), { name: 'AbortError' });
    });
    expect(await shareArtwork(file, 'https://x/a.jpg', { share, canShare: () => true })).toBe('cancelled');
  });

  it('fetches both pictures ahead, named by format, and leaves out one that fails', async () => {
    const fetcher = vi.fn(async (url: string | URL | Request) =>
      String(url).includes('story') ? new Response('gone', { status: 404 }) : new Response(new Blob(['post'])),
    );
    const files = await fetchArtworkFiles({ post: '/files/a.jpg', story: '/files/a.story.jpg' }, fetcher);
    expect([...files.keys()]).toEqual(['/files/a.jpg']);
    expect(files.get('/files/a.jpg')?.name).toBe(campaign.brand.downloadFileName);
    const ok = vi.fn(async () => new Response(new Blob(['x'])));
    const both = await fetchArtworkFiles({ post: '/files/a.jpg', story: '/files/a.story.jpg' }, ok);
    expect(both.get('/files/a.story.jpg')?.name).toBe(campaign.brand.downloadFileName.replace(/\.jpg$/, '-story.jpg'));
    // A job saved before story versions has none to fetch.
    expect([...(await fetchArtworkFiles({ post: '/files/a.jpg', story: null }, ok)).keys()]).toEqual(['/files/a.jpg']);
  });
});
