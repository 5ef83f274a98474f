import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerFetch } from '../test/answer-fetch';
import { ApiRequestError } from './api-error';
import { readCookie } from './cookies';
import { apiRequest, retriesFor } from './http';

afterEach(() => {
  vi.restoreAllMocks();
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the XSRF cookie.
  document.cookie = 'XSRF-TOKEN=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/';
});

function respondWith(...statuses: number[]) {
  const calls: Request[] = [];
  answerFetch(async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push(new Request(new URL(String(input), 'http://localhost'), init));
    const status = statuses.shift() ?? 200;
    return new Response(JSON.stringify(status < 400 ? { ok: true } : { error: 'nope' }), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
  return calls;
}

describe('HTTP client', () => {
  it('retries non-mutating methods once and mutating ones never', () => {
    expect(retriesFor('GET')).toBe(1);
    expect(retriesFor('head')).toBe(1);
    expect(retriesFor('POST')).toBe(0);
    expect(retriesFor(undefined)).toBe(1);
  });

  it('retries a GET once on 503 but not on 404', async () => {
    let calls = respondWith(503, 200);
    await expect(apiRequest('/api/result/x')).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(2);
    calls = respondWith(404, 200);
    await expect(apiRequest('/api/result/x')).rejects.toMatchObject({ status: 404 });
    expect(calls).toHaveLength(1);
  });

  it('never retries a POST, and sends the XSRF cookie back as the header', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the XSRF cookie.
    document.cookie = 'XSRF-TOKEN=tok%3Den; Path=/';
    const calls = respondWith(503, 200);
    await expect(apiRequest('/api/consent', { method: 'POST', body: { a: 1 } })).rejects.toMatchObject({ status: 503 });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers.get('x-xsrf-token')).toBe('tok=en');
  });

  it('sends a refused POST once more when the refusal handed out the missing XSRF cookie', async () => {
    const calls: Array<string | null> = [];
    answerFetch(async (_input: RequestInfo | URL, init?: RequestInit) => {
      calls.push(new Headers(init?.headers).get('x-xsrf-token'));
      if (calls.length === 1) {
        // biome-ignore lint/suspicious/noDocumentCookie: plays the server's Set-Cookie on the 403.
        document.cookie = 'XSRF-TOKEN=fresh; Path=/';
        return Response.json({ error: 'Missing or invalid XSRF token' }, { status: 403 });
      }
      return Response.json({ ok: true }, { status: 201 });
    });
    await expect(apiRequest('/api/consent', { method: 'POST', body: {} })).resolves.toEqual({ ok: true });
    expect(calls).toEqual([null, 'fresh']);
  });

  it('does not repeat a POST refused although it carried a token', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the XSRF cookie.
    document.cookie = 'XSRF-TOKEN=stale; Path=/';
    const calls = respondWith(403, 201);
    await expect(apiRequest('/api/consent', { method: 'POST', body: {} })).rejects.toMatchObject({ status: 403 });
    expect(calls).toHaveLength(1);
  });

  it('reads cookies by exact name', () => {
    expect(readCookie('locale', 'xlocale=fr; locale=de; other=1')).toBe('de');
    expect(readCookie('missing', 'a=b')).toBeNull();
  });

  describe('a failed call carries a code to translate and the status', () => {
    const failing = (answer: () => Promise<Response>) => {
      answerFetch(answer);
      return apiRequest('/api/upload', { method: 'POST', body: {} }).then(
        () => expect.fail('the call should fail'),
        (error: unknown) => error,
      );
    };

    it("takes the API's catalogue code", async () => {
      const error = await failing(async () =>
        Response.json(
          { error: 'The photo must be a JPEG, PNG, WebP or HEIC image', code: 'unsupportedMedia' },
          { status: 415 },
        ),
      );
      expect(error).toBeInstanceOf(ApiRequestError);
      expect(error).toMatchObject({ code: 'unsupportedMedia', status: 415 });
    });

    it('gives an answer without a known code the code of its status class', async () => {
      const proxy = await failing(
        async () =>
          new Response('<html><body>502 Bad Gateway</body></html>', {
            status: 502,
            headers: { 'content-type': 'text/html' },
          }),
      );
      expect(proxy).toMatchObject({ code: 'unknownServerError', status: 502 });
      const newer = await failing(async () => Response.json({ error: 'Gone', code: 'somethingNew' }, { status: 410 }));
      expect(newer).toMatchObject({ code: 'unknownClientError', status: 410 });
    });

    it('calls a request that got no answer a network failure', async () => {
      const offline = await failing(async () => {
        throw new TypeError('Failed to fetch');
      });
      expect(offline).toMatchObject({ code: 'network', status: 0 });
    });
  });
});
