import { isFinalStatus, nextPollDelay, POLL, type QueueStatus } from '@selfie-mosaic/contract';
import { sleep } from './scale-cluster.js';
import { Visitor } from './visitor.js';

/**
 * Visitors of the scale benchmarks, as the web app behaves when it polls (its fallback from the event
 * stream): consent, upload, then a poll every 2 s, backing off on errors, until the job is final. Every
 * answer is noted with its status and latency.
 */

export type Step = 'consent' | 'upload' | 'poll';

export interface Answer {
  step: Step;
  /** HTTP status; 0 when no answer came (connection refused or reset, or none within the timeout). */
  status: number;
  /** Epoch ms the request was sent. */
  sentAt: number;
  ms: number;
  retryAfter: boolean;
  /** The job an accepted upload created, or a poll asked about. */
  jobId?: string;
}

export class Answers {
  readonly list: Answer[] = [];

  note(answer: Answer): void {
    this.list.push(answer);
  }

  /** Answers to requests sent from `from` to `to` (epoch ms). */
  between(from: number, to: number): Answer[] {
    return this.list.filter((a) => a.sentAt >= from && a.sentAt <= to);
  }
}

export const serverErrors = (answers: Answer[]) => answers.filter((a) => a.status >= 500 && a.status !== 503).length;

/** "200 × 310, 503 × 21 (all with Retry-After), no answer × 2": by status, lowest first. */
export function describeAnswers(answers: Answer[]): string {
  const counts = new Map<number, Answer[]>();
  for (const answer of answers) {
    const of = counts.get(answer.status) ?? [];
    of.push(answer);
    counts.set(answer.status, of);
  }
  return [...counts]
    .sort(([a], [b]) => (a === 0 ? 1 : b === 0 ? -1 : a - b))
    .map(([status, of]) => {
      const label = status === 0 ? 'no answer' : String(status);
      if (status !== 503 && status !== 429) return `${label} × ${of.length}`;
      const withHeader = of.filter((a) => a.retryAfter).length;
      const header = withHeader === of.length ? 'all' : `${withHeader}`;
      return `${label} × ${of.length} (${header} with Retry-After)`;
    })
    .join(', ');
}

/** "consent 201 × 9, 503 × 3; upload 202 × 8; poll 200 × 40": by step, in the order a visitor takes them. */
export function describeSteps(answers: Answer[]): string {
  const steps: Step[] = ['consent', 'upload', 'poll'];
  return steps
    .map((step) => [step, answers.filter((a) => a.step === step)] as const)
    .filter(([, of]) => of.length > 0)
    .map(([step, of]) => `${step} ${describeAnswers(of)}`)
    .join('; ');
}

/** At most `limit` requests in flight, so the load generator stays a fixed share of the machine. */
export class Limiter {
  /** The longest a request waited for its turn: above a few ms, the generator itself was the bottleneck. */
  maxWaitMs = 0;
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    const asked = performance.now();
    if (this.active < this.limit) this.active++;
    // A finished request hands its slot over directly.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.maxWaitMs = Math.max(this.maxWaitMs, performance.now() - asked);
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/** One poll's answer for a waiting job, with when it was asked and answered (epoch ms). */
export interface PollSample {
  jobId: string;
  sentAt: number;
  receivedAt: number;
  status: QueueStatus['status'];
  position: number;
}

export interface VisitOptions {
  /** The API each request goes to: a live one, as a load balancer picks. */
  api: () => string;
  photo: Buffer;
  answers: Answers;
  limiter: Limiter;
  /** Tries of a refused or unanswered consent or upload (a visitor tapping "try again" after Retry-After). */
  tries: number;
  /** Polling goes on while this holds (the run's deadline). */
  active: () => boolean;
  onAccepted?: (jobId: string) => void;
  onPoll?: (sample: PollSample) => void;
}

export interface Visit {
  jobId?: string;
  /** The last status polled. */
  status?: QueueStatus['status'];
}

const POLL_TIMEOUT_MS = 30_000;
const GONE_AFTER_404S = 5;
/** The longest a refused visitor waits before trying again, whatever Retry-After says. */
const MAX_RETRY_WAIT_S = 5;

async function timed<T extends { status: number; retryAfter: string | null; jobId?: string }>(
  options: VisitOptions,
  step: Step,
  send: () => Promise<T>,
): Promise<(T & { sentAt: number }) | undefined> {
  return options.limiter.run(async () => {
    const sentAt = Date.now();
    const started = performance.now();
    try {
      const answer = await send();
      const ms = performance.now() - started;
      const { status, jobId } = answer;
      options.answers.note({
        step,
        status,
        sentAt,
        ms,
        retryAfter: answer.retryAfter !== null,
        ...(jobId ? { jobId } : {}),
      });
      return { ...answer, sentAt };
    } catch {
      options.answers.note({ step, status: 0, sentAt, ms: performance.now() - started, retryAfter: false });
      return undefined;
    }
  });
}

const retryWait = (retryAfter: string | null | undefined) =>
  sleep(Math.min(MAX_RETRY_WAIT_S, Number(retryAfter) || 1) * 1000);

/** One visitor: consent and upload (each tried up to `tries` times), then polls until the job is final. */
export async function visit(options: VisitOptions): Promise<Visit> {
  const jobId = await arrive(new Visitor(options.api), options);
  if (!jobId) return {};
  return { jobId, ...(await pollUntilFinal(options, jobId)) };
}

/** Consent and upload, each tried up to `tries` times; the accepted job's id. */
export async function arrive(visitor: Visitor, options: VisitOptions): Promise<string | undefined> {
  const consented = await tryStep(visitor, options, 'consent', 201, async () => {
    const response = await visitor.consent();
    await response.body?.cancel();
    return { status: response.status, retryAfter: response.headers.get('retry-after') };
  });
  if (!consented) return undefined;
  const uploaded = await tryStep(visitor, options, 'upload', 202, () => visitor.upload(options.photo));
  if (uploaded?.jobId) options.onAccepted?.(uploaded.jobId);
  return uploaded?.jobId;
}

/** A step tried until it is answered `expected`, up to `tries` times; the accepted answer. */
async function tryStep<T extends { status: number; retryAfter: string | null }>(
  visitor: Visitor,
  options: VisitOptions,
  step: Step,
  expected: number,
  send: () => Promise<T>,
): Promise<T | undefined> {
  let refused: T | undefined;
  for (let tries = 0; tries < options.tries; tries++) {
    if (tries > 0) await retryWait(refused?.retryAfter);
    // The page load that sets the cookie; not a step the visitor sees answered.
    const loaded =
      visitor.cookie !== '' ||
      (await visitor.init().then(
        () => true,
        () => false,
      ));
    if (!loaded) continue;
    const answer = await timed(options, step, send);
    if (answer?.status === expected) return answer;
    refused = answer;
  }
  return undefined;
}

/** Polls as the web app does: every 2 s, backing off on an error, until the job is final or `active` ends. */
export async function pollUntilFinal(options: VisitOptions, jobId: string): Promise<Visit> {
  let delay: number = POLL.initialMs;
  let last: QueueStatus['status'] | undefined;
  let notFound = 0;
  // A job answered "not found" again and again is gone (the web app would poll on): counted as lost.
  while (options.active() && notFound < GONE_AFTER_404S) {
    await sleep(delay);
    const answer = await timed(options, 'poll', async () => {
      const response = await fetch(`${options.api()}/api/queue/position/${jobId}`, {
        signal: AbortSignal.timeout(POLL_TIMEOUT_MS),
      });
      const body = response.status === 200 ? ((await response.json()) as QueueStatus) : undefined;
      if (!body) await response.body?.cancel();
      return { status: response.status, retryAfter: response.headers.get('retry-after'), body, jobId };
    });
    notFound = answer?.status === 404 ? notFound + 1 : 0;
    if (!answer?.body) {
      delay = nextPollDelay(delay, 'error');
      continue;
    }
    const { status, queue_position: position } = answer.body;
    options.onPoll?.({ jobId, sentAt: answer.sentAt, receivedAt: Date.now(), status, position });
    last = status;
    if (isFinalStatus(status)) break;
    delay = nextPollDelay(delay, 'success');
  }
  return last ? { status: last } : {};
}
