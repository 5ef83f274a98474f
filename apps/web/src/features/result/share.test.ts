import { describe, expect, it, vi } from 'vitest';
import { campaign } from '../../lib/campaign';
import { shareArtwork } from './share';

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

  it('treats a dismissed share sheet as cancelled, not as a failure', async () => {
    const share = vi.fn(async () => {
      throw Object.assign(new Error('abort'), { name: 'AbortError' });
    });
    expect(await shareArtwork(file, 'https://x/a.jpg', { share, canShare: () => true })).toBe('cancelled');
  });
});
