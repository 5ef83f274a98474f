/**
 * In-app browsers of social apps (docs/product.md#photo): web pages get no camera there, or one that never
 * starts, and downloads of `blob:` links are blocked. Order matters: Messenger's user agent carries
 * Facebook's markers too.
 */
const IN_APP_BROWSERS = [
  ['instagram', /\bInstagram\b/i],
  ['messenger', /MessengerForiOS|MessengerLiteForiOS|FB_IAB\/(Orca|MESSENGER)/i],
  ['facebook', /FBAN\/|FBAV\/|FB_IAB\/|FBIOS/i],
  ['tiktok', /musical_ly|BytedanceWebview|\bTikTok\b|\btrill_\d/i],
  ['snapchat', /\bSnapchat\//i],
  ['linkedin', /LinkedInApp/i],
  ['line', /\bLine\/\d/i],
  ['wechat', /MicroMessenger\//i],
  ['twitter', /\bTwitter(Android)?\b/i],
  ['pinterest', /\bPinterest\b/i],
] as const;

export type InAppBrowser = (typeof IN_APP_BROWSERS)[number][0];

/** Which social app's browser this is, or null in a real browser. */
export function detectInAppBrowser(userAgent: string = globalThis.navigator?.userAgent ?? ''): InAppBrowser | null {
  for (const [app, pattern] of IN_APP_BROWSERS) if (pattern.test(userAgent)) return app;
  return null;
}

export function isInAppBrowser(userAgent: string = globalThis.navigator?.userAgent ?? ''): boolean {
  return detectInAppBrowser(userAgent) !== null;
}

export type MobilePlatform = 'android' | 'ios' | 'other';

/** The phone's system: it decides how a page leaves an in-app browser. */
export function mobilePlatform(userAgent: string = globalThis.navigator?.userAgent ?? ''): MobilePlatform {
  if (/Android/i.test(userAgent)) return 'android';
  if (/iPhone|iPad|iPod/i.test(userAgent)) return 'ios';
  return 'other';
}

/**
 * An Android intent link that opens `href` in the phone's default browser: no `package=`, so Android picks
 * the visitor's own browser; the fallback URL keeps the visitor on the page if no app takes the intent.
 */
export function androidIntentUrl(href: string): string {
  const url = new URL(href);
  const scheme = url.protocol.replace(':', '');
  return `intent://${url.host}${url.pathname}${url.search}#Intent;scheme=${scheme};action=android.intent.action.VIEW;S.browser_fallback_url=${encodeURIComponent(href)};end`;
}
