/**
 * The app's page addresses, `/:country/:language/:screen`: the web app builds and reads them, and the
 * server answers exactly these with the app (any other page gets the app's 404).
 */
export const SCREEN_NAMES = ['start', 'exit', 'curious', 'terms', 'photo', 'result', 'download', 'continue'] as const;
export type ScreenName = (typeof SCREEN_NAMES)[number];

/** Where a visitor lands in a market and language. */
export const FIRST_SCREEN = 'start' satisfies ScreenName;

export function isScreenName(value: string | undefined): value is ScreenName {
  return (SCREEN_NAMES as readonly (string | undefined)[]).includes(value);
}

/** A market's landing address; the app picks one of its languages from there. */
export function marketPath(country: string): string {
  return `/${country}`;
}

/** A screen in a market and language: `screenPath('de', 'de', 'photo')` → `/de/de/photo`. */
export function screenPath(country: string, language: string, screen: string = FIRST_SCREEN): string {
  return `${marketPath(country)}/${language}/${screen}`;
}

/** The parts of a page address as written (no case folding); missing parts are undefined. */
export function pagePathParts(pathname: string): { country?: string; language?: string; screen?: string } {
  const [, country, language, screen] = pathname.split('/');
  return { country, language, screen };
}
