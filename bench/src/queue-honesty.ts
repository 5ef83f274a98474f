import type { PollSample } from './scale-visitors.js';

/**
 * Whether the queue positions visitors were told held, from their own polls and when each job started
 * rendering (its recorded end less its render time):
 * - a waiting job's position never rises from one poll to the next;
 * - a job told "position 1" starts next: no job still seen behind it (at position 2 or more) by a poll
 *   sent after that answer starts rendering before it. Requiring "seen behind" leaves out the job a
 *   worker has just taken but not yet marked, which for a moment still reads as next in line.
 */

export interface Honesty {
  /** Poll answers of waiting jobs. */
  waiting: number;
  /** Answers with a higher position than the same job's previous answer. */
  rises: number;
  /** Jobs that ever rose. */
  jobsRising: number;
  /** Answers saying position 1 (of jobs whose start is recorded). */
  first: number;
  /** Of those, how many saw a job behind them start first. */
  overtaken: number;
}

const isWaiting = (sample: PollSample) => sample.status === 'queued' || sample.status === 'pending';

export function queueHonesty(samples: PollSample[], starts: Map<string, number>): Honesty {
  const byJob = new Map<string, PollSample[]>();
  for (const sample of samples.filter(isWaiting)) {
    const polls = byJob.get(sample.jobId) ?? [];
    polls.push(sample);
    byJob.set(sample.jobId, polls);
  }

  let rises = 0;
  let jobsRising = 0;
  /** Per job, when a poll last saw it behind another job. */
  const lastBehind = new Map<string, number>();
  for (const [jobId, polls] of byJob) {
    polls.sort((a, b) => a.sentAt - b.sentAt);
    const risen = polls.filter((poll, i) => i > 0 && poll.position > (polls[i - 1] as PollSample).position).length;
    rises += risen;
    if (risen > 0) jobsRising++;
    const behind = polls.filter((poll) => poll.position >= 2).at(-1);
    if (behind) lastBehind.set(jobId, behind.sentAt);
  }

  // Jobs in the order they started, with the latest "seen behind" of any job started up to each one.
  const started = [...starts].sort(([, a], [, b]) => a - b);
  const latestBehind: number[] = [];
  started.forEach(([jobId], i) => {
    latestBehind[i] = Math.max(latestBehind[i - 1] ?? -1, lastBehind.get(jobId) ?? -1);
  });
  /** Index of the first job started at or after `at`. */
  const startedBefore = (at: number) => {
    let low = 0;
    let high = started.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((started[mid] as [string, number])[1] < at) low = mid + 1;
      else high = mid;
    }
    return low;
  };

  let first = 0;
  let overtaken = 0;
  for (const sample of samples.filter((s) => isWaiting(s) && s.position === 1)) {
    const start = starts.get(sample.jobId);
    if (start === undefined) continue;
    first++;
    // Jobs that started before this one: was any of them seen behind something after this answer?
    const before = startedBefore(start);
    if (before > 0 && (latestBehind[before - 1] as number) >= sample.receivedAt) overtaken++;
  }
  return { waiting: samples.filter(isWaiting).length, rises, jobsRising, first, overtaken };
}
