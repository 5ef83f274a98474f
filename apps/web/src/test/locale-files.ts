import { answerFetch } from './answer-fetch';

const copies = import.meta.glob<unknown>('../locales/*.json', { eager: true, import: 'default' });

/** The app fetches each locale's copy as a JSON file; in a screen test `fetch` answers from the sources. */
export function serveLocaleFiles(): void {
  answerFetch(async (input: RequestInfo | URL) => {
    const code = /\/([\w-]+)\.json/.exec(String(input))?.[1];
    return new Response(JSON.stringify(copies[`../locales/${code}.json`] ?? {}));
  });
}
