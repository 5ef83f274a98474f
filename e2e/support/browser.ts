import { type Browser, type BrowserContext, chromium, devices, type Page } from 'playwright-core';

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

/** A phone (Pixel 7 touch profile at 390×844, or narrower) in Debian's Chromium with the chosen camera. */
export async function openPhone(options: {
  camera?: Camera;
  video: string;
  baseURL: string;
  locale?: string;
  /** CSS pixels; 390 unless a narrower phone is the point (the smallest we serve is 360). */
  width?: number;
}): Promise<Phone> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_FLAGS, ...cameraArgs(options.camera ?? 'face', options.video)],
  });
  const context = await browser.newContext({
    ...devices['Pixel 7'],
    viewport: { width: options.width ?? 390, height: 844 },
    baseURL: options.baseURL,
    locale: options.locale ?? 'en-GB',
    acceptDownloads: true,
  });
  const page = await context.newPage();
  return { browser, context, page, close: () => browser.close() };
}
