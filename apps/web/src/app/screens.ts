import type { ComponentType } from 'react';

type ScreenModule = Promise<{ default: ComponentType }>;

/** Every screen is its own chunk; the same importers serve the routes and the idle preload. */
export const SCREENS = {
  start: () => import('../features/age-gate/StartScreen') as ScreenModule,
  exit: () => import('../features/exit/ExitScreen') as ScreenModule,
  curious: () => import('../features/terms/CuriousScreen') as ScreenModule,
  terms: () => import('../features/terms/TermsScreen') as ScreenModule,
  photo: () => import('../features/camera/PhotoScreen') as ScreenModule,
  result: () => import('../features/result/ResultScreen') as ScreenModule,
  download: () => import('../features/download/DownloadScreen') as ScreenModule,
} as const;

export type ScreenName = keyof typeof SCREENS;

/** Where a visitor can go from each screen: these chunks are fetched while the visitor reads. */
export const NEXT_SCREENS: Record<ScreenName, readonly ScreenName[]> = {
  start: ['curious', 'exit'],
  exit: ['start'],
  curious: ['terms', 'photo'],
  terms: ['photo'],
  photo: ['result'],
  result: ['download'],
  download: [],
};

export function isScreenName(value: string | undefined): value is ScreenName {
  return value !== undefined && Object.hasOwn(SCREENS, value);
}
