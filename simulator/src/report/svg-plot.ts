/**
 * The report's inline SVG bar chart (stop latencies, one labelled bar each, with the value written beside it)
 * and HTML escaping. Time series are drawn by uPlot (uplot-chart.ts).
 */
export interface Marker {
  x: number;
  label: string;
  color: string;
}

const W = 640;
const PAD = { l: 48, r: 12, t: 24, b: 28 };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
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
