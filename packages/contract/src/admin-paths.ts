/**
 * Where the operators' side of the API lives (docs/architecture.md#operators), kept apart from the
 * schemas in admin.ts so that the web app's entry chunk can route `/admin` without bundling zod.
 */
export const ADMIN_PATHS = {
  /** The dashboard page, a lazy chunk of the web app. */
  page: '/admin',
  /** POST signs in (sets the cookie), DELETE signs out. */
  session: '/api/admin/session',
  live: '/api/admin/live',
  funnel: '/api/admin/funnel',
  funnelCsv: '/api/admin/funnel.csv',
  /** `?from&to&format=csv|ndjson`: consent records with their jobs and deletion times, streamed. */
  consentExport: '/api/admin/export/consents',
} as const;

/** The sign-in cookie: HttpOnly, SameSite=Strict, Secure behind HTTPS, scoped to the admin API. */
export const ADMIN_COOKIE = { name: 'admin_session', path: '/api/admin', maxAgeSeconds: 8 * 60 * 60 } as const;
