/** The human-readable report: one aligned table per suite, then its targets (✓/✗) and notes. */
import { isLatencyStats, type LatencyStats } from './latency-stats.js';
import type { MachineInfo } from './machine.js';
import type { SuiteResult, TableRow, Target } from './suite.js';

/** A latency given in µs, shown in the unit that keeps 3 significant digits readable. */
export function formatMicros(us: number): string {
  if (!Number.isFinite(us)) return String(us);
  if (us < 1) return `${(us * 1000).toFixed(0)} ns`;
  if (us < 1000) return `${us.toFixed(us < 10 ? 2 : us < 100 ? 1 : 0)} µs`;
  if (us < 1_000_000) return `${(us / 1000).toFixed(us < 10_000 ? 2 : 1)} ms`;
  return `${(us / 1_000_000).toFixed(2)} s`;
}

/** A count or rate with thousands separators, e.g. `1,234,567`, `64` or `12.5`. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n) || Math.abs(n) >= 100) return Math.round(n).toLocaleString('en-US');
  return n.toFixed(Math.abs(n) >= 10 ? 1 : 2);
}

function alignTable(header: string[], body: string[][]): string[] {
  const widths = header.map((h, c) => Math.max(h.length, ...body.map((row) => (row[c] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0)))
      .join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)];
}

function latencyTable(rows: LatencyStats[]): string[] {
  return alignTable(
    ['operation', 'count', 'ops/s', 'mean', 'p50', 'p99', 'p99.9', 'max'],
    rows.map((r) => [
      r.name,
      formatNumber(r.count),
      formatNumber(r.opsPerSec),
      formatMicros(r.meanUs),
      formatMicros(r.p50Us),
      formatMicros(r.p99Us),
      formatMicros(r.p999Us),
      formatMicros(r.maxUs),
    ]),
  );
}

function freeTable(rows: TableRow[]): string[] {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r).filter((k) => k !== 'name')))];
  return alignTable(
    ['name', ...columns],
    rows.map((r) => [
      r.name,
      ...columns.map((c) => {
        const v = r[c];
        return v === undefined ? '' : typeof v === 'number' ? formatNumber(v) : v;
      }),
    ]),
  );
}

export function formatTarget(t: Target): string {
  const unit = t.unit === undefined ? '' : ` ${t.unit}`;
  return `${t.met ? '✓' : '✗'} ${t.name}: ${formatNumber(t.actual)}${unit} ${t.comparison} ${formatNumber(t.limit)}${unit}`;
}

export function formatSuiteResult(result: SuiteResult, description = ''): string {
  const lines = [`== ${result.suite}${description ? `: ${description}` : ''}`];
  const latency = result.rows.filter(isLatencyStats);
  const free = result.rows.filter((r): r is TableRow => !isLatencyStats(r));
  if (latency.length > 0) lines.push(...latencyTable(latency));
  if (free.length > 0) lines.push(...(latency.length > 0 ? [''] : []), ...freeTable(free));
  if (result.targets !== undefined && result.targets.length > 0) {
    lines.push('', 'targets:', ...result.targets.map((t) => `  ${formatTarget(t)}`));
  }
  if (result.run !== undefined) {
    const { wallMs, cpuMs, cpuShare } = result.run;
    lines.push(
      '',
      `  ran ${(wallMs / 1000).toFixed(1)} s wall, ${(cpuMs / 1000).toFixed(1)} s CPU (${(cpuShare * 100).toFixed(0)} % of one CPU)`,
    );
  }
  if (result.notes !== undefined && result.notes.length > 0) {
    lines.push('', ...result.notes.map((n) => `  note: ${n}`));
  }
  return lines.join('\n');
}

export function formatMachine(m: MachineInfo): string {
  return [
    `machine: ${m.cpuModel}, ${m.cores} logical CPUs${m.cpuList === undefined ? '' : ` (allowed: ${m.cpuList})`}`,
    `         node ${m.node} (V8 ${m.v8}), ${m.platform}/${m.arch} ${m.osRelease}, load ${m.loadAvg1m.toFixed(2)}`,
    `         harness overhead ${m.timerOverheadNs.toFixed(0)} ns per measured call (median, empty function)`,
    `         started ${m.startedAt}`,
  ].join('\n');
}
