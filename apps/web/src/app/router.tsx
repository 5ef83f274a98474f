import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { NotFoundPage, NotFoundScreen } from './ErrorPages';
import { LocaleRoute } from './locale-route';
import { CountryRedirect, RootRedirect } from './redirects';
import { SCREENS, type ScreenName } from './screens';

const LAZY_SCREENS = Object.fromEntries(Object.entries(SCREENS).map(([name, load]) => [name, lazy(load)])) as Record<
  ScreenName,
  LazyExoticComponent<ComponentType>
>;

function screenRoute(name: ScreenName) {
  const Screen = LAZY_SCREENS[name];
  return <Route key={name} path={name} element={<Screen />} />;
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
