import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sendEvent } from '../../lib/pageview';
import { sessionStore } from '../../lib/session';
import { serveLocaleFiles } from '../../test/locale-files';
import { renderApp } from '../../test/render-app';

async function openDownload() {
  await renderApp('/gb/en/download');
  await screen.findByRole('heading', { level: 1, name: 'Save your artwork' });
}

beforeEach(() => {
  serveLocaleFiles();
});

afterEach(() => {
  cleanup();
  sessionStore.reset();
  vi.restoreAllMocks();
});

describe('download screen', () => {
  it('shows the artwork with a real download link', async () => {
    sessionStore.update({ processedImage: '/files/abc.jpg' });
    await openDownload();
    expect(screen.getByTestId('artwork').getAttribute('src')).toBe('/files/abc.jpg');
    const button = screen.getByRole('link', { name: 'Download image' });
    expect(button.getAttribute('href')).toBe('/files/abc.jpg?download=1');
    expect(screen.getByText('Press and hold the image, then choose to save it to your photos.')).toBeTruthy();
    vi.mocked(sendEvent).mockClear();
    fireEvent.click(button);
    expect(sendEvent).toHaveBeenCalledExactlyOnceWith('download', 'gb', 'en');
  });

  it('offers the story version too, chosen on the result screen or here', async () => {
    sessionStore.update({ processedImage: '/files/abc.jpg', storyImage: '/files/abc.story.jpg' });
    await renderApp('/gb/en/download?format=story');
    await screen.findByRole('heading', { level: 1, name: 'Save your artwork' });
    expect(screen.getByTestId('artwork').getAttribute('src')).toBe('/files/abc.story.jpg');
    expect(screen.getByRole('img', { name: 'Your selfie as a mosaic artwork, in story format' })).toBeTruthy();
    const button = screen.getByRole('link', { name: 'Download image' });
    expect(button.getAttribute('href')).toBe('/files/abc.story.jpg?download=1');
    const group = screen.getByRole('group', { name: 'Format' });
    expect(group).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Post 4:5' }));
    expect(screen.getByTestId('artwork').getAttribute('src')).toBe('/files/abc.jpg');
    expect(button.getAttribute('href')).toBe('/files/abc.jpg?download=1');
  });

  it('shows no format choice for an artwork saved before story versions', async () => {
    sessionStore.update({ processedImage: '/files/abc.jpg' });
    await renderApp('/gb/en/download?format=story');
    await screen.findByRole('heading', { level: 1, name: 'Save your artwork' });
    expect(screen.getByTestId('artwork').getAttribute('src')).toBe('/files/abc.jpg');
    expect(screen.queryByRole('group', { name: 'Format' })).toBeNull();
  });

  it('says when there is nothing to download yet', async () => {
    await openDownload();
    expect(screen.getByText('There is no artwork to download yet.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the start' }).getAttribute('href')).toBe('/gb/en/start');
  });
});
