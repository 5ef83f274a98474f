import { isLocaleCode } from '@selfie-mosaic/campaign';
import { loadLocale } from '../lib/i18n';
import { isScreenName, SCREENS } from './screens';

/**
 * Starts the first screen's chunk and the locale's copy together with the first render, instead of
 * one after the other (the route only asks for its screen once the locale has loaded).
 */
export function warmUpRoute(pathname: string): void {
  const [, , language, screen] = pathname.split('/');
  if (isLocaleCode(language)) void loadLocale(language).catch(() => undefined);
  if (isScreenName(screen)) void SCREENS[screen]().catch(() => undefined);
}
