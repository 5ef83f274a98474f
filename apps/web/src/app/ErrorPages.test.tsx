import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerFetch } from '../test/answer-fetch';
import { ErrorBoundary } from './ErrorPages';

const english = import.meta.glob<unknown>('../locales/en.json', { eager: true, import: 'default' });

function Broken(): never {
  throw new Error('render failed');
}

async function renderBroken() {
  await act(async () =>
    render(
      <ErrorBoundary framed>
        <Broken />
      </ErrorBoundary>,
    ),
  );
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  answerFetch(async () => new Response(JSON.stringify(english['../locales/en.json']), { status: 200 }));
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('error page', () => {
  it('shows Internal Server Error to visitors', async () => {
    await renderBroken();
    expect(await screen.findByRole('heading', { level: 1, name: 'Internal Server Error' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Internal Server Error | IQOS Mosaic'));
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });

  it('never shows the error page to crawlers', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    );
    await renderBroken();
    expect(await screen.findByRole('heading', { level: 1, name: 'IQOS Mosaic' })).toBeTruthy();
    expect(screen.queryByText('Internal Server Error')).toBeNull();
  });
});
