/** In-app browsers of social apps: no camera for web pages, and downloads of `blob:` links are blocked. */
const IN_APP_BROWSER =
  /Instagram|FBAN|FBAV|FB_IAB|FBIOS|Line\/|MicroMessenger|Snapchat|TikTok|musical_ly|BytedanceWebview|LinkedInApp|Twitter|Pinterest/i;

export function isInAppBrowser(userAgent: string = globalThis.navigator?.userAgent ?? ''): boolean {
  return IN_APP_BROWSER.test(userAgent);
}
