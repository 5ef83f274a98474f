import { describe, expect, it } from 'vitest';
import { consentRequestSchema, pageviewRequestSchema, uploadFieldsSchema } from './schemas.js';
import { createSessionId, SESSION_ID_PATTERN } from './session-id.js';

const consent = {
  country_iso: 'DE',
  language: 'de',
  question_answer: 'yes',
  consent_given: true,
  ip_address: null,
};

describe('consentRequestSchema', () => {
  it('accepts the body the client sends, with the country in any case', () => {
    expect(consentRequestSchema.parse(consent)).toMatchObject({ country_iso: 'de', language: 'de' });
  });

  it('names the bad field', () => {
    const result = consentRequestSchema.safeParse({ ...consent, language: 'xx' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['language']);
  });

  it('refuses a code that names no country, and any IP address', () => {
    expect(consentRequestSchema.safeParse({ ...consent, country_iso: 'zz' }).success).toBe(false);
    expect(consentRequestSchema.safeParse({ ...consent, ip_address: '1.2.3.4' }).success).toBe(false);
  });
});

describe('uploadFieldsSchema', () => {
  it('reads blacklabel as a boolean, false by default', () => {
    const id = createSessionId(1_700_000_000_000);
    expect(uploadFieldsSchema.parse({ user_session_id: id }).blacklabel).toBe(false);
    expect(uploadFieldsSchema.parse({ user_session_id: id, blacklabel: 'true' }).blacklabel).toBe(true);
  });

  it('refuses a malformed session id', () => {
    for (const bad of ['', 'session-', 'session-abc-123', '../etc/passwd', 'session-1-a b']) {
      expect(uploadFieldsSchema.safeParse({ user_session_id: bad }).success).toBe(false);
    }
  });
});

describe('session ids', () => {
  it('are a timestamp plus a random string, prefixed with session-', () => {
    const id = createSessionId(1_700_000_000_000);
    expect(id).toMatch(/^session-1700000000000-[a-z0-9]{12}$/);
    expect(SESSION_ID_PATTERN.test(id)).toBe(true);
    expect(createSessionId()).not.toBe(createSessionId());
  });
});

describe('pageviewRequestSchema', () => {
  it('accepts a page path and refuses anything that is not one', () => {
    const view = {
      country_iso: 'ae',
      language: 'ae-ar',
      page_path: '/ae/ae-ar/start',
      ip_address: null,
      user_agent: 'x',
    };
    expect(pageviewRequestSchema.safeParse(view).success).toBe(true);
    expect(pageviewRequestSchema.safeParse({ ...view, page_path: 'http://evil' }).success).toBe(false);
  });
});
