/**
 * The API base from public runtime configuration: a `<meta name="api-base">` the operator can set in
 * the served index.html, else the build-time `VITE_API_BASE`, else the same origin.
 */
export function apiBase(): string {
  const meta = globalThis.document?.querySelector<HTMLMetaElement>('meta[name="api-base"]')?.content;
  const base = meta || import.meta.env.VITE_API_BASE || '';
  return base.replace(/\/$/, '');
}
