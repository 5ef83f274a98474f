import { createSessionId, XSRF } from '@selfie-mosaic/contract';

/** Where a visitor's requests go: one server, or the API a load balancer picks for each request. */
export type Target = string | (() => string);

/** A visitor as the web app behaves: picks up the XSRF cookie, records consent, uploads a photo. */
export class Visitor {
  readonly sessionId = createSessionId();
  /** The cookie header a browser of this visitor sends with every request. */
  cookie = '';
  private token = '';

  constructor(private readonly target: Target) {}

  get url(): string {
    return typeof this.target === 'string' ? this.target : this.target();
  }

  async start(): Promise<void> {
    await this.init();
    const consent = await this.consent();
    if (consent.status !== 201) throw new Error(`Consent answered ${consent.status}: ${await consent.text()}`);
  }

  /** Picks up the XSRF cookie, as the web app does when it loads. */
  async init(): Promise<void> {
    const response = await fetch(`${this.url}/healthz`);
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith(`${XSRF.cookie}=`));
    if (!setCookie) throw new Error('The server set no XSRF cookie');
    this.cookie = setCookie.split(';')[0] ?? '';
    this.token = decodeURIComponent(this.cookie.slice(XSRF.cookie.length + 1));
  }

  consent(): Promise<Response> {
    return this.post(
      '/api/consent',
      JSON.stringify({
        country_iso: 'de',
        language: 'de',
        question_answer: 'yes',
        consent_given: true,
        ip_address: null,
        user_session_id: this.sessionId,
      }),
      { 'content-type': 'application/json' },
    );
  }

  async upload(photo: Buffer): Promise<{ status: number; jobId?: string; ms: number; retryAfter: string | null }> {
    const form = new FormData();
    form.set('user_session_id', this.sessionId);
    form.set('blacklabel', 'false');
    form.set('photo', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'selfie.jpg');
    const started = performance.now();
    const response = await this.post('/api/upload', form);
    const ms = performance.now() - started;
    const body = (await response.json()) as { job_id?: string };
    const retryAfter = response.headers.get('retry-after');
    return { status: response.status, ms, retryAfter, ...(body.job_id ? { jobId: body.job_id } : {}) };
  }

  private post(path: string, body: BodyInit, headers: Record<string, string> = {}) {
    return fetch(`${this.url}${path}`, {
      method: 'POST',
      body,
      headers: { ...headers, cookie: this.cookie, [XSRF.header]: this.token },
    });
  }
}
