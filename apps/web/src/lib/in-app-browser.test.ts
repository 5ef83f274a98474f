import { describe, expect, it } from 'vitest';
import { androidIntentUrl, detectInAppBrowser, isInAppBrowser, mobilePlatform } from './in-app-browser';

const IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const ANDROID_WEBVIEW =
  'Mozilla/5.0 (Linux; Android 13; SM-S911B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/114.0.5735.196 Mobile Safari/537.36';

/** User agents as the apps send them (published samples and logs), on iOS and Android. */
const IN_APP = {
  instagram: [
    `${IOS} Instagram 290.0.0.13.76 (iPhone14,5; iOS 16_5; en_US; en; scale=3.00; 1170x2532; 489720907)`,
    `${ANDROID_WEBVIEW} Instagram 291.0.0.31.111 Android (33/13; 480dpi; 1080x2340; samsung; SM-S911B; dm1q; qcom; en_GB; 493450264)`,
  ],
  facebook: [
    `${IOS} [FBAN/FBIOS;FBDV/iPhone13,2;FBMD/iPhone;FBSN/iOS;FBSV/16.6;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5;FBRV/0]`,
    `${ANDROID_WEBVIEW} [FB_IAB/FB4A;FBAV/377.0.0.22.107;]`,
  ],
  messenger: [
    `${IOS} [FBAN/MessengerForiOS;FBAV/373.0.0.37.107;FBBV/391339186;FBDV/iPhone12,1;FBMD/iPhone;FBSN/iOS;FBSV/15.6;FBSS/2;FBID/phone;FBLC/en_US;FBOP/5]`,
    `${ANDROID_WEBVIEW} [FB_IAB/Orca-Android;FBAV/354.0.0.11.114;]`,
  ],
  tiktok: [
    `${IOS} musical_ly_29.3.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en Region/US ByteFullLocale/en isDarkMode/0 WKWebView/1 RevealType/Dialog BytedanceWebview/d8a21c6`,
    `${ANDROID_WEBVIEW} trill_280503 JsSdk/1.0 NetType/WIFI Channel/googleplay AppName/trill app_version/28.5.3 ByteLocale/en ByteFullLocale/en Region/DE BytedanceWebview/d8a21c6`,
  ],
  snapchat: [
    `${IOS} Snapchat/12.20.0.34 (like Safari/8614.4.6.0.6, panda)`,
    `${ANDROID_WEBVIEW} Snapchat/12.35.0.45 (like Chrome/113.0.5672.131)`,
  ],
  linkedin: [`${IOS} [LinkedInApp]/9.27.3952`, `${ANDROID_WEBVIEW} [LinkedInApp]/4.1.835`],
  line: [`${IOS} Safari Line/13.10.0`, `${ANDROID_WEBVIEW} Line/13.9.1/IAB`],
  wechat: [
    `${IOS} MicroMessenger/8.0.38(0x1800262c) NetType/WIFI Language/zh_CN`,
    `${ANDROID_WEBVIEW} XWEB/5127 MMWEBSDK/20230504 MicroMessenger/8.0.37.2380(0x2800253D) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64`,
  ],
} as const;

/** Real browsers: they get the live camera and no "open in your browser". */
const BROWSERS = {
  'Chrome on Android':
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  'Chrome on iOS':
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/119.0.6045.169 Mobile/15E148 Safari/604.1',
  Safari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
  'Samsung Internet':
    'Mozilla/5.0 (Linux; Android 13; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36',
  'Firefox on Android': 'Mozilla/5.0 (Android 14; Mobile; rv:120.0) Gecko/120.0 Firefox/120.0',
  'Firefox on iOS':
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/120.0 Mobile/15E148 Safari/605.1.15',
  'Chrome on a laptop':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
} as const;

describe('in-app browser detection', () => {
  for (const [app, agents] of Object.entries(IN_APP)) {
    it(`recognises ${app} on iOS and Android`, () => {
      for (const agent of agents) expect(detectInAppBrowser(agent)).toBe(app);
    });
  }

  for (const [name, agent] of Object.entries(BROWSERS)) {
    it(`leaves ${name} alone`, () => {
      expect(detectInAppBrowser(agent)).toBeNull();
      expect(isInAppBrowser(agent)).toBe(false);
    });
  }

  it("tells the phone's system apart", () => {
    expect(mobilePlatform(IN_APP.instagram[0])).toBe('ios');
    expect(mobilePlatform(IN_APP.instagram[1])).toBe('android');
    expect(mobilePlatform(BROWSERS['Chrome on a laptop'])).toBe('other');
  });
});

describe('the Android way out', () => {
  it('is an intent link to the same page, for whichever browser the visitor chose as default', () => {
    const href = 'https://mosaic.example/de/de/photo?utm_source=ig';
    const intent = androidIntentUrl(href);
    expect(intent).toBe(
      'intent://mosaic.example/de/de/photo?utm_source=ig#Intent;scheme=https;action=android.intent.action.VIEW;' +
        `S.browser_fallback_url=${encodeURIComponent(href)};end`,
    );
    expect(intent).not.toContain('package=');
  });
});
