import { isLocaleCode } from '@selfie-mosaic/campaign';
import { isScreenName, pagePathParts } from '@selfie-mosaic/contract';
import { loadLocale } from '../lib/i18n';
import { SCREENS } from './screens';

/**
 * Starts the first screen's chunk and the locale's copy together with the first render, instead of
 * one after the other (the route only asks for its screen once the locale has loaded).
 */
export function warmUpRoute(pathname: string): void {
  // Lower-cased like the route it redirects to (`/GB/EN/start`).
  const { language, screen } = pagePathParts(pathname.toLowerCase());
  if (isLocaleCode(language)) void loadLocale(language).catch(() => undefined);
  if (isScreenName(screen)) firstScreen = SCREENS[screen]().catch(() => undefined);
}

let firstScreen: Promise<unknown> = Promise.resolve();

/**
 * Settles once the first screen's chunk is in (or failed: the screen's own boundary deals with that).
 * The page frame waits for it, so the first paint is the whole screen, not a loading line that the
 * screen then pushes the footer down from (a layout shift).
 */
export function firstScreenReady(): Promise<unknown> {
  return firstScreen;
}
