import type { AdminFunnel, FunnelStep } from '@selfie-mosaic/contract';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { DAY_CHART_STEPS, STEP_LABELS } from './labels';

/**
 * Chart.js, loaded only by the dashboard (its own chunk). Only the pieces the two charts use are
 * registered, so the rest of the library is left out of the bundle.
 */
Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Legend,
  Tooltip,
);

/** The app's colours, read from its custom properties so a campaign theme recolours the charts too. */
function token(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

function theme() {
  Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
  Chart.defaults.color = token('--ink-soft');
  Chart.defaults.borderColor = token('--stone-200');
  // Figures change every refresh; moving bars would only distract (and ignore reduced motion).
  Chart.defaults.animation = false;
}

export function drawFunnel(canvas: HTMLCanvasElement, steps: readonly FunnelStep[], totals: AdminFunnel['totals']) {
  theme();
  return new Chart(canvas, {
    type: 'bar',
    data: {
      labels: steps.map((step) => STEP_LABELS[step]),
      datasets: [
        {
          label: 'Visitors',
          data: steps.map((step) => totals[step]),
          backgroundColor: token('--primary-strong'),
          borderRadius: 4,
        },
      ],
    },
    options: {
      indexAxis: 'y',
      responsive: true,
      maintainAspectRatio: false,
      plugins: { legend: { display: false } },
      scales: { x: { beginAtZero: true, ticks: { precision: 0 } } },
    },
  });
}

/** The series per day: distinct in colour and in dash, so they part without colour vision too. */
const DAY_STYLE: Record<(typeof DAY_CHART_STEPS)[number], { color: string; dash: number[] }> = {
  start_views: { color: '--ink', dash: [] },
  consented: { color: '--primary-strong', dash: [6, 4] },
  uploads: { color: '--primary-deep', dash: [2, 3] },
  artworks: { color: '--gold', dash: [] },
  downloads: { color: '--danger', dash: [10, 4, 2, 4] },
};

export function drawDays(canvas: HTMLCanvasElement, days: AdminFunnel['days']) {
  theme();
  return new Chart(canvas, {
    type: 'line',
    data: {
      labels: days.map((day) => day.date.slice(5)),
      datasets: DAY_CHART_STEPS.map((step) => ({
        label: STEP_LABELS[step],
        data: days.map((day) => day[step]),
        borderColor: token(DAY_STYLE[step].color),
        backgroundColor: token(DAY_STYLE[step].color),
        borderDash: DAY_STYLE[step].dash,
        borderWidth: 2,
        pointRadius: 3,
      })),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      interaction: { mode: 'index', intersect: false },
      plugins: { legend: { position: 'bottom', labels: { boxWidth: 24, boxHeight: 2 } } },
      scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
    },
  });
}
