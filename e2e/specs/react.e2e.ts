import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPhone, type Phone } from '../support/browser.js';

interface Renderer {
  name: string;
  version: string;
  /** 0 is React's production build, 1 its development build. */
  bundleType: number;
}

declare global {
  interface Window {
    /** Filled by the stand-in for React's developer tools hook below. */
    renderers: Renderer[];
    /** Ids of the DOM containers whose React trees committed. */
    committedContainers: string[];
  }
}

/**
 * A stand-in for the React developer tools' global hook, installed before the app loads. react-dom
 * registers itself with this hook (name, version, build) and reports every commit to it; a substitute
 * library (Preact's compat layer, say) does neither, so what the page reports is what renders it.
 */
function installDevtoolsHook() {
  window.renderers = [];
  window.committedContainers = [];
  Object.defineProperty(window, '__REACT_DEVTOOLS_GLOBAL_HOOK__', {
    value: {
      supportsFiber: true,
      isDisabled: false,
      renderers: new Map(),
      checkDCE() {},
      inject(internals: { rendererPackageName: string; version: string; bundleType: number }) {
        window.renderers.push({
          name: internals.rendererPackageName,
          version: internals.version,
          bundleType: internals.bundleType,
        });
        return window.renderers.length;
      },
      onCommitFiberRoot(_id: number, root: { containerInfo?: { id?: string } }) {
        window.committedContainers.push(root.containerInfo?.id ?? '');
      },
      onCommitFiberUnmount() {},
      onPostCommitFiberRoot() {},
      setStrictMode() {},
    },
  });
}

describe('the app a visitor gets runs on React', () => {
  let phone: Phone;
  const scripts: Promise<string>[] = [];

  beforeAll(async () => {
    phone = await openPhone({ baseURL: inject('baseURL'), video: inject('faceVideo') });
    await phone.context.addInitScript(installDevtoolsHook);
    phone.page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.text());
    });
  });
  afterAll(() => phone.close());

  it('renders the start screen with react-dom 19, production build, and ships no Preact', async () => {
    const { page } = phone;
    await page.goto('/gb/en/start');
    await page.getByTestId('age-yes').waitFor();

    const renderers = await page.evaluate(() => window.renderers);
    expect(renderers).toEqual([{ name: 'react-dom', version: expect.stringMatching(/^19\./), bundleType: 0 }]);
    expect(await page.evaluate(() => window.committedContainers)).toContain('root');
    // createRoot marks its container; Preact's compat layer leaves no such key.
    const marked = await page.evaluate(() =>
      Object.keys(document.getElementById('root') ?? {}).some((key) => key.startsWith('__reactContainer$')),
    );
    expect(marked).toBe(true);

    const bodies = await Promise.all(scripts);
    expect(bodies.length).toBeGreaterThan(0);
    expect(bodies.filter((body) => /preact/i.test(body))).toEqual([]);
  });
});
