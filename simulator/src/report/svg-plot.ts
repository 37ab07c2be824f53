/**
 * Minimal inline SVG line and bar charts for the offline HTML report: no scripts, no external files, text
 * escaped. Each chart has a title, axes with min/max labels, and a legend, so it reads without tooltips.
 */
export interface Series {
  label: string;
  color: string;
  points: [number, number][];
  /** Drawn dashed (thresholds such as the operating radius). */
  dashed?: boolean;
}

export interface Marker {
  x: number;
  label: string;
  color: string;
}

const W = 640;
const H = 200;
const PAD = { l: 48, r: 12, t: 24, b: 28 };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function extent(values: number[], fallback: [number, number]): [number, number] {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return fallback;
  let lo = Math.min(...finite);
  let hi = Math.max(...finite);
  if (lo === hi) {
    lo -= 1;
    hi += 1;
  }
  return [lo, hi];
}

const fmt = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(2));

export function lineChart(
  title: string,
  xLabel: string,
  yLabel: string,
  series: Series[],
  markers: Marker[] = [],
): string {
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  const [x0, x1] = extent([...xs, ...markers.map((m) => m.x)], [0, 1]);
  const [y0, y1] = extent(ys, [0, 1]);
  const sx = (x: number) => PAD.l + ((x - x0) / (x1 - x0)) * (W - PAD.l - PAD.r);
  const sy = (y: number) => H - PAD.b - ((y - y0) / (y1 - y0)) * (H - PAD.t - PAD.b);
  const paths = series
    .filter((s) => s.points.length > 0)
    .map((s) => {
      const d = s.points
        .filter((p) => Number.isFinite(p[1]))
        .map((p, i) => `${i === 0 ? 'M' : 'L'}${sx(p[0]).toFixed(1)},${sy(p[1]).toFixed(1)}`)
        .join('');
      return `<path d="${d}" fill="none" stroke="${s.color}" stroke-width="1.5"${s.dashed ? ' stroke-dasharray="5 4"' : ''}><title>${escapeHtml(s.label)}</title></path>`;
    })
    .join('');
  const marks = markers
    .map(
      (m) =>
        `<line x1="${sx(m.x).toFixed(1)}" x2="${sx(m.x).toFixed(1)}" y1="${PAD.t}" y2="${H - PAD.b}" stroke="${m.color}" stroke-width="1"/><text class="marker" x="${(sx(m.x) + 2).toFixed(1)}" y="${PAD.t + 10}" fill="${m.color}">${escapeHtml(m.label)}</text>`,
    )
    .join('');
  const legend = series
    .map(
      (s, i) =>
        `<text x="${PAD.l + 4 + (i % 4) * 150}" y="${14 + Math.floor(i / 4) * 0}" fill="${s.color}" class="legend">■ ${escapeHtml(s.label)}</text>`,
    )
    .join('');
  return `<figure><figcaption>${escapeHtml(title)}</figcaption><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeHtml(title)}">
<rect x="${PAD.l}" y="${PAD.t}" width="${W - PAD.l - PAD.r}" height="${H - PAD.t - PAD.b}" fill="#fafafa" stroke="#bbb"/>
${legend}${paths}${marks}
<text x="4" y="${PAD.t + 8}" class="axis">${fmt(y1)}</text><text x="4" y="${H - PAD.b}" class="axis">${fmt(y0)}</text>
<text x="${PAD.l}" y="${H - 8}" class="axis">${fmt(x0)}</text><text x="${W - PAD.r - 40}" y="${H - 8}" class="axis">${fmt(x1)}</text>
<text x="${W / 2 - 40}" y="${H - 8}" class="axis">${escapeHtml(xLabel)}</text><text x="4" y="${H / 2}" class="axis">${escapeHtml(yLabel)}</text>
</svg></figure>`;
}

export function barChart(
  title: string,
  unit: string,
  bars: { label: string; value: number | null }[],
  limit?: number,
): string {
  const max = Math.max(limit ?? 0, ...bars.map((b) => b.value ?? 0), 1);
  const rowH = 22;
  const height = PAD.t + bars.length * rowH + 10;
  const scale = (v: number) => (v / max) * (W - 220);
  const rows = bars
    .map((b, i) => {
      const y = PAD.t + i * rowH;
      const text = b.value === null ? 'never' : `${b.value} ${unit}`;
      return `<text x="4" y="${y + 14}" class="axis">${escapeHtml(b.label)}</text><rect x="140" y="${y + 3}" width="${scale(b.value ?? max).toFixed(1)}" height="14" fill="${b.value === null || (limit !== undefined && b.value > limit) ? '#c62828' : '#2e7d32'}"/><text x="${(146 + scale(b.value ?? max)).toFixed(1)}" y="${y + 14}" class="axis">${escapeHtml(text)}</text>`;
    })
    .join('');
  const limitLine =
    limit === undefined
      ? ''
      : `<line x1="${(140 + scale(limit)).toFixed(1)}" x2="${(140 + scale(limit)).toFixed(1)}" y1="${PAD.t}" y2="${height - 6}" stroke="#c62828" stroke-dasharray="4 3"/><text x="${(142 + scale(limit)).toFixed(1)}" y="14" class="axis" fill="#c62828">limit ${limit} ${escapeHtml(unit)}</text>`;
  return `<figure><figcaption>${escapeHtml(title)}</figcaption><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${height}" width="${W}" height="${height}" role="img" aria-label="${escapeHtml(title)}">${rows}${limitLine}</svg></figure>`;
}
