import {
  ADMIN_PATHS,
  type AdminFunnel,
  type AdminLive,
  type AdminRange,
  adminFunnelSchema,
  adminLiveSchema,
} from '@selfie-mosaic/contract';
import { apiBase } from '../../lib/api-base';
import { ApiRequestError } from '../../lib/api-error';
import { apiRequest } from '../../lib/http';

/**
 * The dashboard's calls to the admin API (docs/architecture.md#operators). The session cookie is
 * HttpOnly: the page never sees it, it only asks the server whether it is signed in.
 */

export type SessionState = 'signedIn' | 'signedOut' | 'off';

/** 204 signed in, 401 signed out, 404 when the server has no admin secret (the dashboard is off). */
export async function readSession(): Promise<SessionState> {
  try {
    await apiRequest(ADMIN_PATHS.session);
    return 'signedIn';
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) return 'signedOut';
    if (error instanceof ApiRequestError && error.status === 404) return 'off';
    throw error;
  }
}

export function signIn(token: string): Promise<void> {
  return apiRequest(ADMIN_PATHS.session, { method: 'POST', body: { token } });
}

export function signOut(): Promise<void> {
  return apiRequest(ADMIN_PATHS.session, { method: 'DELETE' });
}

/** An answer that does not match the contract is a fault on the server's side, shown as such. */
function parsed<T>(schema: { safeParse(data: unknown): { success: true; data: T } | { success: false } }) {
  return (data: unknown): T => {
    const result = schema.safeParse(data);
    if (!result.success) throw new ApiRequestError('unknownServerError', 200, 'The answer does not match the contract');
    return result.data;
  };
}

export function fetchLive(): Promise<AdminLive> {
  return apiRequest<unknown>(ADMIN_PATHS.live).then(parsed(adminLiveSchema));
}

export function fetchFunnel(range: AdminRange): Promise<AdminFunnel> {
  return apiRequest<unknown>(ADMIN_PATHS.funnel, { query: range }).then(parsed(adminFunnelSchema));
}

const rangeQuery = ({ from, to }: AdminRange) => new URLSearchParams({ from, to });

/** Plain links: the browser downloads the attachment with the session cookie, no script involved. */
export function funnelCsvUrl(range: AdminRange): string {
  return `${apiBase()}${ADMIN_PATHS.funnelCsv}?${rangeQuery(range)}`;
}

export function consentExportUrl(range: AdminRange, format: 'csv' | 'ndjson'): string {
  const query = rangeQuery(range);
  query.set('format', format);
  return `${apiBase()}${ADMIN_PATHS.consentExport}?${query}`;
}
