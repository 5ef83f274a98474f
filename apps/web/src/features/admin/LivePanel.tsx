import { type AdminLive, REFUSALS, type RefusalCode } from '@selfie-mosaic/contract';
import type { TFunction } from 'i18next';
import { useEffect, useId } from 'react';
import { fetchLive } from './admin-api';
import { errorText, isSignedOut } from './error-text';
import { formatCount, formatDecimal, formatDuration, formatUtcTime } from './figures';
import { REFUSAL_LABELS } from './labels';
import { useVisiblePolling } from './use-visible-polling';

/** Often enough to watch a queue drain, rarely enough to cost the server nothing worth measuring. */
export const LIVE_REFRESH_MS = 5000;

const REFUSAL_CODES = Object.keys(REFUSALS) as RefusalCode[];
const DASH = '–';

interface LivePanelProps {
  t: TFunction;
  onExpired: () => void;
}

/**
 * The render service now: queue, processing, throughput, render times and refusals over the server's
 * window. Every figure keeps its place from the first paint (a dash until the first answer), so
 * nothing moves when the numbers arrive. Screen readers are told only when refreshing stops or
 * resumes, not every five seconds.
 */
export function LivePanel({ t, onExpired }: LivePanelProps) {
  const { data, error } = useVisiblePolling(fetchLive, LIVE_REFRESH_MS);
  const id = useId();
  const signedOut = isSignedOut(error);

  useEffect(() => {
    if (signedOut) onExpired();
  }, [signedOut, onExpired]);

  const span = data ? `last ${data.window_minutes} min` : 'recent';
  const stats: [string, string, string, string][] = [
    ['queue', 'Queue depth', 'jobs waiting', data ? formatCount(data.queue_depth) : DASH],
    ['processing', 'Processing', 'jobs rendering now', data ? formatCount(data.processing) : DASH],
    ['rate', 'Jobs per minute', span, data ? formatDecimal(data.jobs_per_minute) : DASH],
    ['p50', 'Render time p50', `median, ${span}`, renderTime(data, 'p50')],
    ['p95', 'Render time p95', `95th percentile, ${span}`, renderTime(data, 'p95')],
    ['completed', 'Completed', span, data ? formatCount(data.completed) : DASH],
  ];

  return (
    <section className="card admin-panel" aria-labelledby={`${id}-title`} data-testid="live-panel">
      <div className="admin-panel__head">
        <h2 id={`${id}-title`} className="admin-panel__title">
          Live
        </h2>
        <p className="admin-muted" data-testid="live-updated">
          {data ? (
            <>
              Updated <time dateTime={data.at}>{formatUtcTime(data.at)}</time>, every {LIVE_REFRESH_MS / 1000} s while
              this tab is open
            </>
          ) : (
            'Loading the live figures…'
          )}
        </p>
      </div>
      <dl className="admin-stats">
        {stats.map(([key, label, note, value]) => (
          <div key={key} className="admin-stat">
            <dt>
              {label} <span className="admin-stat__note">({note})</span>
            </dt>
            <dd data-testid={`live-${key}`}>{value}</dd>
          </div>
        ))}
      </dl>
      <h3 className="admin-subtitle">Refusals by reason ({span})</h3>
      <ul className="admin-refusals" data-testid="live-refusals">
        {REFUSAL_CODES.map((code) => (
          <li key={code}>
            <span>{REFUSAL_LABELS[code]}</span>
            <span className="admin-figure">{data ? formatCount(data.refusals[code] ?? 0) : DASH}</span>
          </li>
        ))}
      </ul>
      <p className="form-error" role="status">
        {error && !signedOut
          ? `The live figures could not be refreshed: ${errorText(t, error)} Trying again every ${LIVE_REFRESH_MS / 1000} s.`
          : ''}
      </p>
    </section>
  );
}

function renderTime(data: AdminLive | null, which: 'p50' | 'p95'): string {
  if (!data) return DASH;
  return data.render_ms ? formatDuration(data.render_ms[which]) : 'none';
}
