import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  devices,
  type Page,
} from 'playwright-core';

export type Camera = 'face' | 'denied' | 'none';

/** Debian's Chromium and the flags that keep it quiet on a closed network (TESTING.md). */
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function cameraArgs(camera: Camera, video: string): string[] {
  if (camera === 'face') {
    return [
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ];
  }
  if (camera === 'denied') return ['--use-fake-ui-for-media-stream=deny', '--use-fake-device-for-media-stream'];
  return ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream=device-count=0'];
}

export interface Phone {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Debian's Chromium with the chosen camera, one context of the given kind and a page in it. */
/** Debian's Chromium, headless, with the chosen camera (the browser tests' and the benchmarks'). */
export function launchChromium(camera: Camera, video: string): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_FLAGS, ...cameraArgs(camera, video)],
  });
}

async function open(camera: Camera, video: string, context: BrowserContextOptions): Promise<Phone> {
  const browser = await launchChromium(camera, video);
  const page = await (await browser.newContext({ acceptDownloads: true, ...context })).newPage();
  return { browser, context: page.context(), page, close: () => browser.close() };
}

/** A phone (Pixel 7 touch profile at 390×844, or narrower) in Debian's Chromium with the chosen camera. */
export function openPhone(options: {
  camera?: Camera;
  video: string;
  baseURL: string;
  locale?: string;
  /** CSS pixels; 390 unless a narrower phone is the point (the smallest we serve is 360). */
  width?: number;
}): Promise<Phone> {
  return open(options.camera ?? 'face', options.video, {
    ...devices['Pixel 7'],
    viewport: { width: options.width ?? 390, height: 844 },
    baseURL: options.baseURL,
    locale: options.locale ?? 'en-GB',
  });
}

/** A desktop: a laptop's window, a mouse and no touch, with the chosen camera (none by default). */
export function openDesktop(options: {
  camera?: Camera;
  video: string;
  baseURL: string;
  locale?: string;
}): Promise<Phone> {
  return open(options.camera ?? 'none', options.video, {
    viewport: { width: 1280, height: 800 },
    hasTouch: false,
    isMobile: false,
    baseURL: options.baseURL,
    locale: options.locale ?? 'en-GB',
  });
}
