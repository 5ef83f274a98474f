import type { ScreenName } from '@selfie-mosaic/contract';
import { type ComponentType, type LazyExoticComponent, lazy, useState } from 'react';
import { loadedScreen, SCREENS } from './screens';

const LAZY_SCREENS = Object.fromEntries(Object.entries(SCREENS).map(([name, load]) => [name, lazy(load)])) as Record<
  ScreenName,
  LazyExoticComponent<ComponentType>
>;

/** A screen already fetched renders directly; otherwise lazily. Chosen once per mount, so it never remounts. */
export function Screen({ name }: { name: ScreenName }) {
  const [Component] = useState(() => loadedScreen(name) ?? LAZY_SCREENS[name]);
  return <Component />;
}
