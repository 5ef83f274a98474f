import { ADMIN_COOKIE, ADMIN_PATHS } from '@selfie-mosaic/contract';
import type { Client } from './harness.js';

/** Long enough for the start-up check; each test server gets it through ADMIN_TOKEN. */
export const TEST_ADMIN_TOKEN = 'test-operator-token-4f9c2a7e1b';

/** Signs in and returns the session cookie as a `name=value` pair; throws unless the server set it. */
export async function signIn(client: Client, token = TEST_ADMIN_TOKEN): Promise<string> {
  const response = await client.postJson(ADMIN_PATHS.session, { token });
  if (response.status !== 204) throw new Error(`sign-in answered ${response.status}`);
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${ADMIN_COOKIE.name}=`));
  if (!cookie) throw new Error('sign-in set no session cookie');
  return cookie.split(';')[0] as string;
}

/** A GET as a signed-in browser sends it: the XSRF cookie and the session cookie. */
export function adminGet(client: Client, pathname: string, session: string): Promise<Response> {
  return client.get(pathname, { cookie: `${client.xsrfHeaders.cookie}; ${session}` });
}

/** Parses RFC 4180 CSV (quoted fields with commas, doubled quotes and line breaks) into rows of fields. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += char;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}
