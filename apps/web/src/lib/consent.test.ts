import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerFetch } from '../test/answer-fetch';
import { ConsentError, submitConsent } from './consent';

const request = {
  country_iso: 'de',
  language: 'de',
  question_answer: 'yes',
  consent_given: true,
  ip_address: null,
  user_session_id: 'session-1700000000000-abcd1234',
} as const;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('submitConsent', () => {
  it('posts the consent fields as JSON', async () => {
    const fetch = answerFetch(async () => Response.json({ consent_id: 'x', created_at: 'now' }, { status: 201 }));

    await submitConsent(request);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/consent');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual(request);
  });

  it('rethrows a failure with the code of the answer, for the screen to translate', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    answerFetch(async () => Response.json({ error: 'Too many requests', code: 'rateLimited' }, { status: 429 }));
    const failure = submitConsent(request);
    await expect(failure).rejects.toBeInstanceOf(ConsentError);
    await expect(failure).rejects.toMatchObject({ code: 'rateLimited' });
  });
});
