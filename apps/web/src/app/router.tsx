import { type ComponentType, type LazyExoticComponent, lazy, useState } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { NotFoundPage, NotFoundScreen } from './ErrorPages';
import { LocaleRoute } from './locale-route';
import { CountryRedirect, RootRedirect } from './redirects';
import { loadedScreen, SCREENS, type ScreenName } from './screens';

const LAZY_SCREENS = Object.fromEntries(Object.entries(SCREENS).map(([name, load]) => [name, lazy(load)])) as Record<
  ScreenName,
  LazyExoticComponent<ComponentType>
>;

/** A screen already fetched renders directly; otherwise lazily. Chosen once per mount, so it never remounts. */
function Screen({ name }: { name: ScreenName }) {
  const [Component] = useState(() => loadedScreen(name) ?? LAZY_SCREENS[name]);
  return <Component />;
}

function screenRoute(name: ScreenName) {
  // Keyed by screen: moving between screens mounts the next one instead of keeping the last component.
  return <Route key={name} path={name} element={<Screen key={name} name={name} />} />;
}

/**
 * The routes of SPEC §2. Declarative routes keep the shell small (the data router alone would add
 * about 16 KB gzip to the start screen); each screen is a lazy chunk.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route index element={<RootRedirect />} />
      <Route path=":country" element={<CountryRedirect />} />
      <Route path=":country/:language" element={<LocaleRoute />}>
        <Route index element={<Navigate to="start" replace />} />
        {(Object.keys(SCREENS) as ScreenName[]).map(screenRoute)}
        <Route path="*" element={<NotFoundScreen />} />
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
