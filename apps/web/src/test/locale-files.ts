import { answerFetch } from './answer-fetch';

const copies = import.meta.glob<unknown>('../locales/*.json', { eager: true, import: 'default' });
const countries = import.meta.glob<unknown>('../locales/countries/*.json', { eager: true, import: 'default' });

/** The app fetches each locale's copy and country names as JSON files; in a screen test `fetch` answers from the sources. */
export function serveLocaleFiles(): void {
  answerFetch(async (input: RequestInfo | URL) => {
    const [, folder, code] = /\/(countries\/)?([\w-]+)\.json/.exec(String(input)) ?? [];
    const data = folder ? countries[`../locales/countries/${code}.json`] : copies[`../locales/${code}.json`];
    return new Response(JSON.stringify(data ?? {}));
  });
}
