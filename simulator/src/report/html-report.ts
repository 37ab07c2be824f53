/**
 * The HTML report of a `sim run`: one self-contained page (inline CSS, SVG and scripts, nothing fetched),
 * readable offline. Per scenario: pass/fail and every expectation, the timeline of events and verdicts, and
 * charts (uplot-chart.ts) of joint torques, human distance against the operating radius, motion, battery
 * (volts and percent on their own axes), verdicts over time, and a bar chart of stop latency.
 */
import type { ScenarioResult } from '../runner/scenario-runner.js';
import { barChart, escapeHtml, type Marker } from './svg-plot.js';

/** The report's title; `sim run --report` replaces only a file that carries it (report-target.ts). */
export const REPORT_TITLE = 'Pentagate simulator report';
import { CHART_SCRIPT_HASHES, CHART_STYLE, chartFigure, chartScripts } from './uplot-chart.js';

const COLORS = ['#1565c0', '#2e7d32', '#ef6c00', '#6a1b9a', '#00838f', '#ad1457', '#5d4037', '#455a64'];
const OUTCOMES = ['signed', 'awaiting-consent', 'vetoed', 'consent-expired', 'stopped', 'rejected-input'];
const OUTCOME_COLORS: Record<string, string> = {
  signed: '#2e7d32',
  stopped: '#c62828',
  vetoed: '#ef6c00',
  'awaiting-consent': '#1565c0',
  'consent-expired': '#6a1b9a',
  'rejected-input': '#5d4037',
};

function every<T>(xs: T[], n: number): T[] {
  const step = Math.max(1, Math.ceil(xs.length / n));
  return xs.filter((_, i) => i % step === 0);
}

function scenarioSection(r: ScenarioResult, index: number): string {
  const t = r.trace;
  const samples = every(t.samples, 400);
  const sec = (ms: number) => ms / 1000;
  const verdictMarkers: Marker[] = t.verdicts.map((v) => ({
    x: sec(v.receivedAtMs - t.startedAtMs),
    label: v.verdict.outcome,
    color: OUTCOME_COLORS[v.verdict.outcome] ?? '#333',
  }));
  const xs = samples.map((s) => sec(s.tMs));
  const joints = samples[0]?.effortsNm.length ?? 0;
  const id = (what: string) => `s${index}-${what}`;
  const torque =
    joints > 0
      ? chartFigure({
          id: id('torque'),
          title: 'Joint torques',
          xSeconds: xs,
          axes: [{ label: 'torque (N·m)', scale: 'Nm', zero: true }],
          series: Array.from({ length: joints }, (_, j) => ({
            label: `joint ${j + 1}`,
            color: COLORS[j % COLORS.length]!,
            scale: 'Nm',
            values: samples.map((s) => s.effortsNm[j]!),
          })),
        })
      : '';
  const stops = verdictMarkers.filter((m) => m.label === 'stopped' || m.label === 'vetoed');
  const distance = chartFigure({
    id: id('distance'),
    title: 'Human distance against the operating radius',
    xSeconds: xs,
    axes: [{ label: 'distance (m)', scale: 'm', zero: true }],
    series: [
      {
        label: 'nearest person (truth)',
        color: '#1565c0',
        scale: 'm',
        values: samples.map((s) => s.nearestHumanM),
      },
      {
        label: `operating radius ${t.radiusM} m`,
        color: '#c62828',
        scale: 'm',
        dashed: true,
        values: samples.map(() => t.radiusM),
      },
    ],
    markers: stops,
  });
  const motion = chartFigure({
    id: id('motion'),
    title: 'Robot motion',
    xSeconds: xs,
    axes: [{ label: 'motion', scale: 'state', categories: ['still', 'moving'] }],
    series: [
      {
        label: 'robot moving',
        color: '#2e7d32',
        scale: 'state',
        values: samples.map((s) => (s.moving ? 1 : 0)),
      },
    ],
    markers: stops,
  });
  const battery = chartFigure({
    id: id('battery'),
    title: 'Battery',
    xSeconds: xs,
    axes: [
      { label: 'terminal voltage (V)', scale: 'V' },
      { label: 'state of charge (%)', scale: 'pct', zero: true },
    ],
    series: [
      { label: 'terminal voltage (V)', color: '#ef6c00', scale: 'V', values: samples.map((s) => s.voltageV) },
      {
        label: 'state of charge (%)',
        color: '#2e7d32',
        scale: 'pct',
        values: samples.map((s) => s.stateOfCharge * 100),
      },
    ],
  });
  const received = [...t.verdicts].sort((a, b) => a.receivedAtMs - b.receivedAtMs);
  const verdicts = chartFigure({
    id: id('verdicts'),
    title: 'Verdicts',
    xSeconds: received.map((v) => sec(v.receivedAtMs - t.startedAtMs)),
    axes: [{ label: 'verdict', scale: 'outcome', categories: OUTCOMES }],
    series: OUTCOMES.map((outcome, k) => ({
      label: outcome,
      color: OUTCOME_COLORS[outcome] ?? '#333',
      scale: 'outcome',
      pointsOnly: true,
      values: received.map((v) => (v.verdict.outcome === outcome ? k : null)),
    })),
  });
  const latencies =
    r.vetoLatencies.length > 0
      ? barChart(
          'Stop / veto latency (first frame showing the person → STOP at the controller, or intent → veto)',
          'ms',
          r.vetoLatencies.map((l) => ({
            label: `${l.kind} @ ${(l.tMs / 1000).toFixed(2)} s`,
            value: l.latencyMs,
          })),
        )
      : '<p class="muted">No stop or veto against a person in this scenario.</p>';
  const expectations = r.expectations
    .map(
      (e) =>
        `<tr class="${e.ok ? 'ok' : 'fail'}"><td>${e.ok ? 'PASS' : 'FAIL'}</td><td>${escapeHtml(e.name)}</td><td>${escapeHtml(e.detail)}</td></tr>`,
    )
    .join('');
  const timeline = [
    ...t.events.map((e) => ({ tMs: e.tMs, text: `${e.kind}: ${e.detail}`, cls: 'event' })),
    ...t.verdicts.map((v) => ({
      tMs: v.receivedAtMs - t.startedAtMs,
      text: `verdict ${v.verdict.outcome}${v.verdict.intentId ? ` ${v.verdict.intentId}` : ''}${v.verdict.commandSeq ? ` seq ${v.verdict.commandSeq}` : ''}${v.verdict.violations.length ? ` — ${v.verdict.violations.join(' | ')}` : ''}`,
      cls: `verdict-${v.verdict.outcome}`,
    })),
    ...t.controller.map((c) => ({
      tMs: c.atMs - t.startedAtMs,
      text:
        c.kind === 'accepted'
          ? `controller accepted seq ${c.command.seq} (${c.command.setpoints.kind}) via ${c.via}`
          : c.kind === 'rejected'
            ? `controller REJECTED (${c.reason}) via ${c.via}: ${c.detail}`
            : `controller halted (${c.cause}): ${c.detail}`,
      cls: `controller-${c.kind}`,
    })),
  ]
    .sort((a, b) => a.tMs - b.tMs)
    .map(
      (e) =>
        `<li class="${e.cls}"><span class="t">${(e.tMs / 1000).toFixed(3)} s</span> ${escapeHtml(e.text)}</li>`,
    )
    .join('');
  return `<section id="s${index}" class="${r.passed ? 'pass' : 'fail'}">
<h2>${r.passed ? '✔' : '✘'} ${escapeHtml(r.name)} <small>(${r.transport}, ${(r.wallMs / 1000).toFixed(1)} s)</small></h2>
<table class="expect"><tr><th>result</th><th>expectation</th><th>detail</th></tr>${expectations}</table>
<div class="plots">${torque}${distance}${motion}${battery}${verdicts}${latencies}</div>
<details><summary>Timeline (${t.events.length} events, ${t.verdicts.length} verdicts, ${t.controller.length} controller events)</summary><ol class="timeline">${timeline}</ol></details>
</section>`;
}

export function renderHtmlReport(results: readonly ScenarioResult[], generatedAt = new Date()): string {
  const passed = results.filter((r) => r.passed).length;
  const index = results
    .map(
      (r, i) =>
        `<li class="${r.passed ? 'pass' : 'fail'}"><a href="#s${i}">${r.passed ? 'PASS' : 'FAIL'} ${escapeHtml(r.name)}</a></li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${REPORT_TITLE}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src ${CHART_SCRIPT_HASHES}">
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1400px}
h1{margin-bottom:0}.muted{color:#777}
section{border-top:2px solid #ddd;margin-top:2em;padding-top:1em}
section.fail h2{color:#c62828}section.pass h2{color:#2e7d32}
table.expect{border-collapse:collapse;margin:.5em 0}table.expect td,table.expect th{border:1px solid #ddd;padding:2px 8px;text-align:left}
tr.fail td:first-child{color:#c62828;font-weight:bold}tr.ok td:first-child{color:#2e7d32}
.plots{display:flex;flex-wrap:wrap;gap:12px}figure{margin:0}figcaption{font-weight:600}
svg .axis,svg .legend,svg .marker{font-size:10px;font-family:system-ui,sans-serif}
ol.timeline{font-family:ui-monospace,monospace;font-size:12px}.t{color:#777}
li.controller-rejected{color:#c62828}li.verdict-stopped{color:#c62828;font-weight:bold}
ul.index li.fail a{color:#c62828}ul.index li.pass a{color:#2e7d32}
figure.chart{width:640px}
${CHART_STYLE}
</style></head><body>
<h1>Pentagate simulator report</h1>
<p id="summary">${passed}/${results.length} scenario(s) passed · generated ${escapeHtml(generatedAt.toISOString())}</p>
<ul class="index">${index}</ul>
${results.map(scenarioSection).join('\n')}
${chartScripts()}
</body></html>
`;
}
