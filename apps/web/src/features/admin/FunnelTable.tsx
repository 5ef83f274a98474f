import { getLocale, isLocaleCode } from '@selfie-mosaic/campaign';
import { type AdminFunnel, FUNNEL_STEPS, type FunnelStep } from '@selfie-mosaic/contract';
import { type ReactNode, useId } from 'react';
import { conversion, formatCount } from './figures';
import { CONVERSION_BASE, STEP_LABELS } from './labels';

const regions = new Intl.DisplayNames(['en'], { type: 'region' });
const languages = new Intl.DisplayNames(['en'], { type: 'language' });

/** "Germany (DE)": the operators' names for a market. */
function marketName(country: string): string {
  const code = country.toUpperCase();
  return `${regions.of(code) ?? code} (${code})`;
}

/** "Arabic (United Arab Emirates), ae-ar": the language a visitor used, and the code in the address. */
function localeName(code: string): string {
  if (!isLocaleCode(code)) return code;
  return `${languages.of(getLocale(code).tag) ?? code}, ${code}`;
}

/** A table wider than a phone scrolls inside this box, which the keyboard can reach to scroll it. */
function ScrollBox({ labelledBy, children }: { labelledBy: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must take focus or keyboard users cannot scroll it (WCAG 2.1.1, axe scrollable-region-focusable).
    <section className="admin-table-wrap" aria-labelledby={labelledBy} tabIndex={0}>
      {children}
    </section>
  );
}

function StepCells({ counts }: { counts: Record<FunnelStep, number> }) {
  return FUNNEL_STEPS.map((step) => {
    const rate = conversion(counts, step);
    return (
      <td key={step} data-step={step}>
        <span className="admin-figure">{formatCount(counts[step])}</span>
        {rate && <span className="admin-rate">{rate}</span>}
      </td>
    );
  });
}

/** The accessible equivalent of the charts: each step per market and locale, its rate, the totals. */
export function FunnelTable({ funnel }: { funnel: AdminFunnel | null }) {
  const id = useId();
  return (
    <>
      <p className="admin-muted">
        Under each count, its rate of the step named under the column heading; the last row adds up every market.
      </p>
      <ScrollBox labelledBy={id}>
        <table className="admin-table" data-testid="funnel-table">
          <caption id={id}>Funnel per market and locale</caption>
          <thead>
            <tr>
              <th scope="col" className="admin-table__name">
                Market
              </th>
              <th scope="col" className="admin-table__name">
                Locale
              </th>
              {FUNNEL_STEPS.map((step) => {
                const base = CONVERSION_BASE[step];
                return (
                  <th key={step} scope="col">
                    {STEP_LABELS[step]}
                    {base && <span className="admin-rate">% of {STEP_LABELS[base].toLowerCase()}</span>}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {funnel?.rows.map((row) => (
              <tr
                key={`${row.country_iso}-${row.language}`}
                data-testid={`funnel-row-${row.country_iso}-${row.language}`}
              >
                <th scope="row" className="admin-table__name">
                  {marketName(row.country_iso)}
                </th>
                <td className="admin-table__name">{localeName(row.language)}</td>
                <StepCells counts={row} />
              </tr>
            ))}
            {funnel?.rows.length === 0 && (
              <tr>
                <td colSpan={FUNNEL_STEPS.length + 2} className="admin-table__name">
                  No visitors in this range.
                </td>
              </tr>
            )}
            {!funnel && (
              <tr>
                <td colSpan={FUNNEL_STEPS.length + 2} className="admin-table__name">
                  Loading the funnel…
                </td>
              </tr>
            )}
          </tbody>
          {funnel && (
            <tfoot>
              <tr data-testid="funnel-totals">
                <th scope="row" colSpan={2} className="admin-table__name">
                  All markets
                </th>
                <StepCells counts={funnel.totals} />
              </tr>
            </tfoot>
          )}
        </table>
      </ScrollBox>
    </>
  );
}

/** The per-day chart's figures, folded away: the whole campaign, one row a day. */
export function DayTable({ funnel }: { funnel: AdminFunnel | null }) {
  const id = useId();
  if (!funnel) return null;
  return (
    <details className="admin-days">
      <summary>Figures per day</summary>
      <ScrollBox labelledBy={id}>
        <table className="admin-table">
          <caption id={id}>All markets per day</caption>
          <thead>
            <tr>
              <th scope="col" className="admin-table__name">
                Day
              </th>
              {FUNNEL_STEPS.map((step) => (
                <th key={step} scope="col">
                  {STEP_LABELS[step]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {funnel.days.map((day) => (
              <tr key={day.date}>
                <th scope="row" className="admin-table__name">
                  {day.date}
                </th>
                {FUNNEL_STEPS.map((step) => (
                  <td key={step}>{formatCount(day[step])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
    </details>
  );
}
