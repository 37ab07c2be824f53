/** The summary table `pentagate sim run` prints after the runs, and the JSON form of a result. */
import type { ScenarioResult } from '../runner/scenario-runner.js';

export function summaryTable(results: readonly ScenarioResult[]): string {
  const rows = results.map((r) => {
    const worst = r.vetoLatencies.reduce<number | null>(
      (m, l) => (l.latencyMs === null ? m : Math.max(m ?? 0, l.latencyMs)),
      null,
    );
    const rejected = Object.values(r.rejections).reduce((a, b) => a + b, 0);
    return [
      r.passed ? 'PASS' : 'FAIL',
      r.name,
      r.transport,
      `${r.expectations.filter((e) => e.ok).length}/${r.expectations.length}`,
      String(r.trace.verdicts.length),
      String(rejected),
      worst === null ? '-' : `${worst} ms`,
    ];
  });
  const header = ['result', 'scenario', 'wire', 'expect', 'verdicts', 'rejected', 'worst stop'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const failures = results.flatMap((r) =>
    r.expectations.filter((e) => !e.ok).map((e) => `  ${r.name}: ${e.name} — ${e.detail}`),
  );
  const passed = results.filter((r) => r.passed).length;
  return [
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    `${passed}/${results.length} scenario(s) passed`,
    ...(failures.length > 0 ? ['failed expectations:', ...failures] : []),
  ].join('\n');
}

/** A result without the bulky trace, for `--json`. */
export function resultJson(r: ScenarioResult): Record<string, unknown> {
  return {
    name: r.name,
    file: r.file,
    transport: r.transport,
    passed: r.passed,
    expectations: r.expectations,
    vetoLatenciesMs: r.vetoLatencies,
    controllerRejections: r.rejections,
    verdicts: r.trace.verdicts.map((v) => ({
      outcome: v.verdict.outcome,
      intentId: v.verdict.intentId ?? null,
      violations: v.verdict.violations,
      commandSeq: v.verdict.commandSeq ?? null,
    })),
    wallMs: r.wallMs,
    maxStepGapMs: r.maxStepGapMs,
  };
}
