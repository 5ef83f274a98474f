import { type AdminFunnel, FUNNEL_STEPS } from '@selfie-mosaic/contract';
import { useEffect, useRef, useState } from 'react';
import { formatCount } from './figures';
import { DAY_CHART_STEPS, STEP_LABELS } from './labels';
import { describeRange } from './range';

/**
 * The funnel and the per-day series as charts. Chart.js arrives as its own chunk once the first figures
 * are in; the boxes have a fixed height, so nothing below them moves when it does. A canvas is an
 * image to a screen reader: each has a name that sums it up, and the tables below hold every figure.
 */
export function FunnelCharts({ funnel }: { funnel: AdminFunnel | null }) {
  const funnelCanvas = useRef<HTMLCanvasElement>(null);
  const daysCanvas = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!funnel) return;
    let drawn: { destroy(): void }[] = [];
    let disposed = false;
    import('./charts').then(
      ({ drawFunnel, drawDays }) => {
        if (disposed || !funnelCanvas.current || !daysCanvas.current) return;
        drawn = [
          drawFunnel(funnelCanvas.current, FUNNEL_STEPS, funnel.totals),
          drawDays(daysCanvas.current, funnel.days),
        ];
      },
      () => setFailed(true),
    );
    return () => {
      disposed = true;
      for (const chart of drawn) chart.destroy();
    };
  }, [funnel]);

  const range = funnel ? describeRange(funnel) : '';
  const funnelName = funnel
    ? `Bar chart of the funnel, all markets, ${range}: ${FUNNEL_STEPS.map((step) => `${STEP_LABELS[step]} ${formatCount(funnel.totals[step])}`).join(', ')}.`
    : 'Bar chart of the funnel, loading.';
  const daysName = `Line chart per day of ${DAY_CHART_STEPS.map((step) => STEP_LABELS[step].toLowerCase()).join(', ')}${
    funnel ? `, ${range}` : ''
  }. The figures are in the table "Figures per day".`;

  return (
    <div className="admin-charts">
      <figure className="admin-chart">
        <figcaption>Funnel, all markets</figcaption>
        <div className="admin-chart__box admin-chart__box--funnel">
          <canvas ref={funnelCanvas} role="img" aria-label={funnelName} data-testid="chart-funnel" />
        </div>
      </figure>
      <figure className="admin-chart">
        <figcaption>Per day, all markets</figcaption>
        <div className="admin-chart__box">
          <canvas ref={daysCanvas} role="img" aria-label={daysName} data-testid="chart-days" />
        </div>
      </figure>
      {failed && (
        <p className="form-error" role="status">
          The charts could not be loaded; the tables below hold every figure. Reload the page to try again.
        </p>
      )}
    </div>
  );
}
