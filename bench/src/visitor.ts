import { createSessionId, XSRF } from '@selfie-mosaic/contract';

/** A visitor as the web app behaves: picks up the XSRF cookie, records consent, uploads a photo. */
export class Visitor {
  readonly sessionId = createSessionId();
  /** The cookie header a browser of this visitor sends with every request. */
  cookie = '';
  private token = '';

  constructor(private readonly url: string) {}

  async start(): Promise<void> {
    const response = await fetch(`${this.url}/healthz`);
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith(`${XSRF.cookie}=`));
    if (!setCookie) throw new Error('The server set no XSRF cookie');
    this.cookie = setCookie.split(';')[0] ?? '';
    this.token = decodeURIComponent(this.cookie.slice(XSRF.cookie.length + 1));
    const consent = await this.post(
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
    if (consent.status !== 201) throw new Error(`Consent answered ${consent.status}: ${await consent.text()}`);
  }

  async upload(photo: Buffer): Promise<{ status: number; jobId?: string; ms: number }> {
    const form = new FormData();
    form.set('user_session_id', this.sessionId);
    form.set('blacklabel', 'false');
    form.set('photo', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'selfie.jpg');
    const started = performance.now();
    const response = await this.post('/api/upload', form);
    const ms = performance.now() - started;
    const body = (await response.json()) as { job_id?: string };
    return { status: response.status, ms, ...(body.job_id ? { jobId: body.job_id } : {}) };
  }

  private post(path: string, body: BodyInit, headers: Record<string, string> = {}) {
    return fetch(`${this.url}${path}`, {
      method: 'POST',
      body,
      headers: { ...headers, cookie: this.cookie, [XSRF.header]: this.token },
    });
  }
}
