import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../lib/session';
import { serveLocaleFiles } from '../test/locale-files';
import { currentPath, renderApp } from '../test/render-app';
import { SCREENS } from './screens';

beforeEach(() => {
  // Locale files are fetched as hashed JSON in the browser; here they come from the source folder.
  serveLocaleFiles();
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  sessionStore.reset();
});

describe('routes', () => {
  it('shows the age gate in German with the minimum age, lang, title and warning', async () => {
    await renderApp('/de/de/start');
    expect(await screen.findByRole('heading', { level: 1, name: /18/ })).toBeTruthy();
    expect(document.documentElement.lang).toBe('de');
    expect(document.documentElement.dir).toBe('ltr');
    await waitFor(() => expect(document.title).toMatch(/ \| IQOS Mosaic$/));
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toBeTruthy();
    expect(document.querySelector('.site-footer')?.textContent).toBeTruthy();
  });

  it('Yes goes on to the terms acceptance, No to the exit page', async () => {
    await renderApp('/de/de/start');
    const [yes, no] = await screen.findAllByRole('button', { name: /^(Ja|Nein)$/ });
    await act(async () => {
      fireEvent.click(no as HTMLElement);
    });
    await waitFor(() => expect(currentPath()).toBe('/de/de/exit'));
    cleanup();
    await renderApp('/de/de/start');
    const [again] = await screen.findAllByRole('button', { name: /^(Ja|Nein)$/ });
    await act(async () => {
      fireEvent.click(again as HTMLElement);
    });
    await waitFor(() => expect(currentPath()).toBe('/de/de/curious'));
    expect(yes).toBeDefined();
  });

  it('draws a screen fetched ahead of time at once, never its loading line (no layout shift)', async () => {
    await SCREENS.terms();
    const loadingLines: string[] = [];
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node instanceof HTMLElement && node.matches('.loading')) loadingLines.push(node.textContent ?? '');
        }
      }
    });
    observer.observe(document.body, { childList: true, subtree: true });
    await renderApp('/gb/en/terms');
    await screen.findByRole('heading', { level: 1 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    observer.disconnect();
    expect(loadingLines).toEqual([]);
  });

  it('writes right to left for an Arabic locale and asks about residence', async () => {
    await renderApp('/ae/ae-ar/start');
    await screen.findByRole('heading', { level: 1 });
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('ar-AE');
    expect(screen.getByText(/الإمارات/, { selector: '.lead' })).toBeTruthy();
  });

  it('asks the market’s age in each of its languages and names the country in the page’s language', async () => {
    const pages = [
      ['/kz/kz-ru/start', /21/, 'Казахстан'],
      ['/kz/kk/start', /21/, 'Қазақстан'],
      ['/lv/ru/start', /20/, 'Латвия'],
      ['/am/ru/start', /18/, 'Армения'],
      ['/ge/ka/start', /18/, 'საქართველო'],
      ['/gb/en/start', /18/, 'in the United Kingdom'],
    ] as const;
    for (const [path, age, country] of pages) {
      await renderApp(path);
      expect(await screen.findByRole('heading', { level: 1, name: age }), path).toBeTruthy();
      expect(document.querySelector('.care__warning')?.textContent, path).toContain(country);
      cleanup();
    }
  });

  it('redirects / and /:country to a start screen', async () => {
    await renderApp('/');
    await waitFor(() => expect(currentPath()).toMatch(/^\/[a-z]{2}\/[a-z-]+\/start$/));
    cleanup();
    await renderApp('/kz');
    await waitFor(() => expect(currentPath()).toMatch(/^\/kz\/(kk|kz-ru)\/start$/));
  });

  it('sends mixed-case addresses to their lower-case page and shows it', async () => {
    for (const [path, canonical] of [
      ['/GB/EN/start', /^\/gb\/en\/start$/],
      ['/AE/AE-AR/Start', /^\/ae\/ae-ar\/start$/],
      ['/De/DE/EXIT', /^\/de\/de\/exit$/],
      ['/GB/EN', /^\/gb\/en\/start$/],
      ['/CH', /^\/ch\/(de|fr|it|en)\/start$/],
    ] as const) {
      await renderApp(path);
      await waitFor(() => expect(currentPath()).toMatch(canonical));
      expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
      expect(screen.queryByText('404')).toBeNull();
      cleanup();
    }
  });

  it('shows Page Not Found for unknown paths, markets and locales', async () => {
    for (const path of ['/de/de/nowhere', '/xx', '/de/xx/start', '/a/b/c/d']) {
      await renderApp(path);
      expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
      await waitFor(() => expect(document.title).toMatch(/^(Page Not Found|.+) \| /));
      expect(screen.getByText('404')).toBeTruthy();
      cleanup();
    }
  });

  it('sends a visitor without an answer from the terms acceptance back to the start', async () => {
    await renderApp('/de/de/curious');
    await waitFor(() => expect(currentPath()).toBe('/de/de/start'));
  });
});
