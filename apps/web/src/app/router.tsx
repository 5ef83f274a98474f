import { ADMIN_PATHS } from '@selfie-mosaic/contract';
import { lazy } from 'react';
import { Route, Switch } from 'wouter';
import { NotFoundPage } from './ErrorPages';
import { LocaleRoute } from './locale-route';
import { CountryRedirect, RootRedirect } from './redirects';

/**
 * The routes (docs/product.md#routes), with wouter: a router of about 2 KB gzip keeps the start screen's JavaScript
 * within budget (React Router ships about 13 KB of data-router and form code the app never uses).
 * Each screen is a lazy chunk; `/:country/:language/*` is validated, made canonical and framed by
 * LocaleRoute. `/admin`, the operators' dashboard, is a chunk of its own (with its chart library) that
 * no visitor's page loads; it sits before `/:country`, which would take it for a market.
 */
const AdminPage = lazy(() => import('../features/admin/AdminPage'));

export function AppRoutes() {
  return (
    <Switch>
      <Route path="/">
        <RootRedirect />
      </Route>
      <Route path={ADMIN_PATHS.page}>
        <AdminPage notFound={<NotFoundPage />} />
      </Route>
      <Route path="/:country">
        <CountryRedirect />
      </Route>
      <Route path="/:country/:language/*?">
        <LocaleRoute />
      </Route>
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  );
}
