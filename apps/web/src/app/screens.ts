import type { ScreenName } from '@selfie-mosaic/contract';
import type { ComponentType } from 'react';

type ScreenModule = Promise<{ default: ComponentType }>;

const IMPORTS = {
  start: () => import('../features/age-gate/StartScreen') as ScreenModule,
  exit: () => import('../features/exit/ExitScreen') as ScreenModule,
  curious: () => import('../features/terms/CuriousScreen') as ScreenModule,
  terms: () => import('../features/terms/TermsScreen') as ScreenModule,
  photo: () => import('../features/camera/PhotoScreen') as ScreenModule,
  result: () => import('../features/result/ResultScreen') as ScreenModule,
  download: () => import('../features/download/DownloadScreen') as ScreenModule,
  continue: () => import('../features/handoff/ContinueScreen') as ScreenModule,
} as const satisfies Record<ScreenName, () => ScreenModule>;

const loaded: Partial<Record<ScreenName, ComponentType>> = {};

/**
 * Every screen is its own chunk; the same importers serve the routes, the warm-up and the idle
 * preload. Each remembers its component once it has arrived, so a screen fetched ahead of time
 * renders at once instead of through a lazy boundary's loading line.
 */
export const SCREENS = Object.fromEntries(
  Object.entries(IMPORTS).map(([name, load]) => [
    name,
    () =>
      load().then((module) => {
        loaded[name as ScreenName] = module.default;
        return module;
      }),
  ]),
) as unknown as typeof IMPORTS;

/** The screen's component if its chunk has already arrived. */
export function loadedScreen(name: ScreenName): ComponentType | undefined {
  return loaded[name];
}

/** Where a visitor can go from each screen: these chunks are fetched while the visitor reads. */
export const NEXT_SCREENS: Record<ScreenName, readonly ScreenName[]> = {
  start: ['curious', 'exit'],
  exit: ['start'],
  curious: ['terms', 'photo'],
  terms: ['photo'],
  photo: ['result'],
  result: ['download'],
  download: [],
  // A phone opening a computer's code goes on to the photo step.
  continue: ['photo'],
};
