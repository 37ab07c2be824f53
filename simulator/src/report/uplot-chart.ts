/**
 * Time-series charts of the HTML report, drawn in the page by uPlot (a maintained, dependency-free charting
 * library, MIT): its script and stylesheet are inlined into the report at render time, so the page stays one
 * file that fetches nothing, and the Content-Security-Policy allows exactly these inline scripts by hash.
 *
 * Each chart is a figure with its data as inert JSON (`<script type="application/json">`) and a spec naming,
 * for every axis, the quantity and its unit — one quantity per axis, ticks by uPlot, a zero line where the
 * quantity has one. Categorical axes (verdict outcome, motion) label their ticks by name.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { escapeHtml } from './svg-plot.js';

const require = createRequire(import.meta.url);
const UPLOT_JS = readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8');
const UPLOT_CSS = readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8');

export interface ChartAxis {
  /** `quantity (unit)`: what the axis reads, e.g. `torque (N·m)`. */
  label: string;
  /** Scale key; series on another scale get their own axis (on the right). */
  scale: string;
  /** Draw a line at 0 and keep 0 in range. */
  zero?: boolean;
  /** Names for integer ticks (a categorical axis). */
  categories?: string[];
}

export interface ChartSeries {
  label: string;
  color: string;
  scale: string;
  dashed?: boolean;
  /** Points only, no line (events). */
  pointsOnly?: boolean;
  /** y per x; null where there is no value. */
  values: (number | null)[];
}

export interface ChartSpec {
  id: string;
  title: string;
  /** Shared x values, seconds. */
  xSeconds: number[];
  axes: ChartAxis[];
  series: ChartSeries[];
  /** Vertical event markers (a STOP, a veto), seconds. */
  markers?: { x: number; label: string; color: string }[];
}

export function chartFigure(spec: ChartSpec): string {
  const json = JSON.stringify(spec).replace(/</g, '\\u003c');
  return `<figure class="chart" data-chart="${escapeHtml(spec.id)}"><figcaption>${escapeHtml(spec.title)}</figcaption><div class="plot"></div><script type="application/json" class="chart-data">${json}</script></figure>`;
}

/** Builds every `.chart` figure of the page with uPlot; exposes them as `window.pentagateCharts` for checks. */
const INIT_JS = `(() => {
  const charts = [];
  for (const fig of document.querySelectorAll('figure.chart')) {
    const spec = JSON.parse(fig.querySelector('script.chart-data').textContent);
    const scales = { x: { time: false } };
    for (const a of spec.axes) {
      scales[a.scale] = a.categories
        ? { range: [-0.5, a.categories.length - 0.5] }
        : { range: (u, min, max) => {
            let lo = min, hi = max;
            if (a.zero) { lo = Math.min(0, lo); hi = Math.max(0, hi); }
            if (!(hi > lo)) { lo -= 1; hi += 1; }
            const pad = (hi - lo) * 0.05;
            return [a.zero && lo === 0 ? 0 : lo - pad, hi + pad];
          } };
    }
    const axes = [{ label: 'time (s)', scale: 'x' }].concat(spec.axes.map((a, i) => ({
      label: a.label,
      scale: a.scale,
      side: i === 0 ? 3 : 1,
      grid: { show: i === 0 },
      size: 80,
      gap: 6,
      ...(a.categories ? { splits: () => a.categories.map((_, k) => k), values: (u, ticks) => ticks.map((k) => a.categories[k] ?? ''), size: 130 } : {}),
    })));
    const series = [{ label: 'time (s)' }].concat(spec.series.map((s) => ({
      label: s.label,
      stroke: s.color,
      scale: s.scale,
      width: 1.5,
      ...(s.dashed ? { dash: [6, 4] } : {}),
      ...(s.pointsOnly ? { paths: () => null, points: { show: true, size: 8, fill: s.color } } : { points: { show: false } }),
      spanGaps: false,
    })));
    const zeroScales = spec.axes.filter((a) => a.zero).map((a) => a.scale);
    const hooks = { draw: [(u) => {
      const ctx = u.ctx;
      ctx.save();
      for (const key of zeroScales) {
        const y = u.valToPos(0, key, true);
        ctx.strokeStyle = '#555'; ctx.lineWidth = 1; ctx.setLineDash([]);
        ctx.beginPath(); ctx.moveTo(u.bbox.left, y); ctx.lineTo(u.bbox.left + u.bbox.width, y); ctx.stroke();
      }
      for (const m of spec.markers ?? []) {
        const x = u.valToPos(m.x, 'x', true);
        ctx.strokeStyle = m.color; ctx.setLineDash([4, 3]);
        ctx.beginPath(); ctx.moveTo(x, u.bbox.top); ctx.lineTo(x, u.bbox.top + u.bbox.height); ctx.stroke();
        ctx.fillStyle = m.color; ctx.font = (11 * devicePixelRatio) + 'px system-ui'; ctx.fillText(m.label, x + 4, u.bbox.top + 12 * devicePixelRatio);
      }
      ctx.restore();
    }] };
    const plot = fig.querySelector('.plot');
    const u = new uPlot({ width: 620, height: 260, scales, axes, series, hooks, legend: { live: false } },
      [spec.xSeconds].concat(spec.series.map((s) => s.values)), plot);
    charts.push({ id: spec.id, title: spec.title, axes: axes.map((a) => a.label), series: spec.series.map((s) => s.label), markers: (spec.markers ?? []).map((m) => m.label), plot: u });
  }
  window.pentagateCharts = charts;
})();`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The page's `<head>` additions: uPlot's stylesheet and the CSP source list for the two inline scripts. */
export const CHART_STYLE = UPLOT_CSS;
export const CHART_SCRIPT_HASHES = `${sha256(UPLOT_JS)} ${sha256(INIT_JS)}`;

/** The scripts, placed at the end of `<body>`: uPlot, then the builder. */
export function chartScripts(): string {
  return `<script>${UPLOT_JS}</script><script>${INIT_JS}</script>`;
}
