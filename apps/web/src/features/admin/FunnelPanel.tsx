import type { AdminRange } from '@selfie-mosaic/contract';
import type { TFunction } from 'i18next';
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { consentExportUrl, fetchFunnel, funnelCsvUrl } from './admin-api';
import { errorText, isSignedOut } from './error-text';
import { FunnelCharts } from './FunnelCharts';
import { DayTable, FunnelTable } from './FunnelTable';
import { checkRange, defaultRange, describeRange, type RangeProblem } from './range';
import { useVisiblePolling } from './use-visible-polling';

/** The funnel changes slowly and costs more to count than the live figures. */
const FUNNEL_REFRESH_MS = 30_000;

interface FunnelPanelProps {
  t: TFunction;
  onExpired: () => void;
}

/** A date range, the funnel for it per market and locale, its charts and its downloads. */
export function FunnelPanel({ t, onExpired }: FunnelPanelProps) {
  const [range, setRange] = useState<AdminRange>(() => defaultRange());
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const [problem, setProblem] = useState<RangeProblem | null>(null);
  const id = useId();

  // A new range object (even the same days again: "Show" refreshes) starts a new series of calls.
  const load = useCallback(() => fetchFunnel(range), [range]);
  const { data, error } = useVisiblePolling(load, FUNNEL_REFRESH_MS);
  const current = data && data.from === range.from && data.to === range.to ? data : null;
  const signedOut = isSignedOut(error);

  useEffect(() => {
    if (signedOut) onExpired();
  }, [signedOut, onExpired]);

  function show(event: FormEvent) {
    event.preventDefault();
    const checked = checkRange(from, to);
    if ('problem' in checked) {
      setProblem(checked.problem);
      document.getElementById(`${id}-${checked.problem.field}`)?.focus();
      return;
    }
    setProblem(null);
    setRange({ ...checked.range });
  }

  const invalid = (field: 'from' | 'to') => (problem?.field === field ? true : undefined);

  return (
    <section className="card admin-panel" aria-labelledby={`${id}-title`} aria-busy={!current && !error}>
      <div className="admin-panel__head">
        <h2 id={`${id}-title`} className="admin-panel__title">
          Funnel
        </h2>
        <p className="admin-muted" data-testid="funnel-range">
          {describeRange(range)}
        </p>
      </div>
      <form className="admin-range" onSubmit={show} noValidate aria-label="Date range">
        <div className="admin-field">
          <label htmlFor={`${id}-from`}>From (UTC)</label>
          <input
            id={`${id}-from`}
            type="date"
            value={from}
            max={to || undefined}
            onChange={(event) => setFrom(event.target.value)}
            aria-invalid={invalid('from')}
            aria-describedby={`${id}-problem`}
            data-testid="range-from"
          />
        </div>
        <div className="admin-field">
          <label htmlFor={`${id}-to`}>To (UTC)</label>
          <input
            id={`${id}-to`}
            type="date"
            value={to}
            min={from || undefined}
            onChange={(event) => setTo(event.target.value)}
            aria-invalid={invalid('to')}
            aria-describedby={`${id}-problem`}
            data-testid="range-to"
          />
        </div>
        <button type="submit" className="button button--small" data-testid="range-show">
          Show
        </button>
        <p id={`${id}-problem`} className="form-error admin-range__problem" role="alert">
          {problem?.message ?? ''}
        </p>
      </form>
      <p className="admin-downloads">
        <a className="button button--ghost button--small" href={funnelCsvUrl(range)} download data-testid="funnel-csv">
          Download CSV
        </a>
        <span className="admin-downloads__export">
          Regulator export, consents in this range:
          <span className="admin-downloads__links">
            <a href={consentExportUrl(range, 'csv')} download data-testid="export-csv">
              CSV
            </a>
            <a href={consentExportUrl(range, 'ndjson')} download data-testid="export-ndjson">
              NDJSON
            </a>
          </span>
        </span>
      </p>
      <p className="form-error" role="status">
        {error && !signedOut ? `The funnel could not be loaded: ${errorText(t, error)}` : ''}
      </p>
      <FunnelCharts funnel={current} />
      <FunnelTable funnel={current} />
      <DayTable funnel={current} />
    </section>
  );
}
