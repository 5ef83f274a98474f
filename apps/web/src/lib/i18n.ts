import { getLocale, type Locale, type LocaleCode } from '@selfie-mosaic/campaign';
import { ERROR_MESSAGES, MESSAGES, QUEUE_MESSAGES } from '@selfie-mosaic/contract';
import type { i18n as I18n, TFunction } from 'i18next';
import { campaign } from './campaign';
import { loadCountryNames } from './country-names';

type Resources = Record<string, unknown>;

/**
 * One hashed JSON file per locale, fetched on demand: a visitor downloads only their own language,
 * and as data, not as JavaScript the browser must parse and compile.
 */
const urls = import.meta.glob<string>('../locales/*.json', { query: '?url', import: 'default', eager: true });
const loaders: Record<string, () => Promise<Resources>> = Object.fromEntries(
  Object.entries(urls).map(([path, url]) => [path, () => fetchJson(url)]),
);

async function fetchJson(url: string): Promise<Resources> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as Resources;
}

function loaderFor(code: string) {
  return loaders[`../locales/${code}.json`];
}

/** `{n}` of the contract's queue messages in i18next's `{{n}}` syntax. */
function toI18nextVariables(text: string): string {
  return text.replace(/\{(\w+)\}/g, '{{$1}}');
}

/**
 * English is written once: en.json holds the UI copy, the contract holds the visitor messages, the
 * queue messages and the error catalogue. They meet here as the `messages`, `queue` and `errors`
 * sections; `errors` is keyed by error code, the app's only way to name a failure.
 */
export function mergeEnglish(ui: Resources): Resources {
  const queue = Object.fromEntries(
    Object.entries(QUEUE_MESSAGES).map(([key, text]) => [key, toI18nextVariables(text)]),
  );
  return { ...ui, messages: { ...MESSAGES }, queue, errors: { ...ERROR_MESSAGES } };
}

let instance: Promise<I18n> | undefined;

/**
 * i18next arrives as its own chunk, fetched alongside the locale's copy: the entry script stays small
 * and the browser evaluates the two in separate, shorter tasks.
 */
function i18nInstance(): Promise<I18n> {
  instance ??= import('i18next').then(({ default: i18next }) => {
    const i18n = i18next.createInstance();
    void i18n.init({
      initAsync: false,
      resources: {},
      fallbackLng: 'en',
      // Copy is filed under each locale's BCP 47 tag, not its URL code: i18next picks plural forms by
      // `Intl.PluralRules(language)`, and the code `ae-ar` would read as Avestan, `bm` as Bambara,
      // `kz-ru` as no language at all. `ar-AE` must never fall back to a bare `ar` either.
      load: 'currentOnly',
      interpolation: { escapeValue: false },
      returnEmptyString: false,
    });
    return i18n;
  });
  return instance;
}

export interface LoadedLocale {
  locale: Locale;
  t: TFunction;
  /** The instance behind `t`, for components that render copy with markup in it (`Trans`). */
  i18n: I18n;
  /** Country code → name in this locale, for `{{country}}`. */
  countryNames: Record<string, string>;
}

const loading = new Map<LocaleCode, Promise<LoadedLocale>>();

/** Adds a locale's copy to i18next, fetching both together; false when no such locale file exists. */
async function addBundle(code: LocaleCode): Promise<boolean> {
  const load = loaderFor(code);
  if (!load) return false;
  const [i18n, resources] = await Promise.all([i18nInstance(), load()]);
  const { tag } = getLocale(code);
  if (!i18n.hasResourceBundle(tag, 'translation')) {
    i18n.addResourceBundle(tag, 'translation', code === 'en' ? mergeEnglish(resources) : resources, true, true);
    addCampaignCopy(i18n, code, tag);
  }
  return true;
}

/**
 * The campaign's copy over the app's: its experience name as every page title's suffix, then the operator's
 * overrides for this locale (checked at start against the keys and variables of the English copy).
 */
function addCampaignCopy(i18n: I18n, code: LocaleCode, tag: string): void {
  i18n.addResource(tag, 'translation', 'meta.titleSuffix', campaign.brand.experienceName);
  for (const [key, text] of Object.entries(campaign.copy[code] ?? {})) {
    if (text !== undefined) i18n.addResource(tag, 'translation', key, text);
  }
}

/** Loads a locale's copy and country names once; a locale whose file has not landed yet reads in English. */
export function loadLocale(code: LocaleCode): Promise<LoadedLocale> {
  let pending = loading.get(code);
  if (!pending) {
    pending = (async () => {
      const [found, countryNames] = await Promise.all([addBundle(code), loadCountryNames(code)]);
      if (!found) await addBundle('en');
      const i18n = await i18nInstance();
      return { locale: getLocale(code), t: i18n.getFixedT(getLocale(found ? code : 'en').tag), i18n, countryNames };
    })();
    pending.catch(() => loading.delete(code));
    loading.set(code, pending);
  }
  return pending;
}
