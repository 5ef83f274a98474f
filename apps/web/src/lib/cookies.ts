/** Reads a cookie by name (the XSRF token and the locale cookie are both readable by design). */
export function readCookie(name: string, cookies = globalThis.document?.cookie ?? ''): string | null {
  for (const part of cookies.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}
