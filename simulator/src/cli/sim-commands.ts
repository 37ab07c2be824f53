/**
 * `pentagate sim run FILE…` and `pentagate sim list`: hardware-in-the-loop scenario runs against the real
 * edge (spawned with its embedded broker), with a progress display on stderr, a summary table (or JSON) on
 * stdout, an optional self-contained HTML report, and exit code 1 when any expectation failed.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { type Command, onStopRequest, PentagateError, UsageError } from '@pentagate/protocol';
import { renderHtmlReport } from '../report/html-report.js';
import { checkReportTarget } from '../report/report-target.js';
import { CellPool, type PoolRunOptions } from '../runner/cell-pool.js';
import { type ScenarioResult, runScenario } from '../runner/scenario-runner.js';
import { DEFAULT_TIMING_FLOOR_MS } from '../runner/timing-floor.js';
import { type LoadedScenario, loadScenario } from '../scenarios/load-scenario.js';
import { SCENARIO_DIR, missingScenarioMessage, scenarioFiles } from './scenario-paths.js';
import { resultJson, summaryTable } from './summary-table.js';

function progressBar(tMs: number, totalMs: number, width = 24): string {
  const filled = Math.min(width, Math.round((tMs / totalMs) * width));
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

export const simRunCommand: Command = {
  path: ['sim', 'run'],
  summary: 'Run simulator scenarios against a real edge and check their expectations',
  usage:
    'FILE... [--json] [--report OUT.html] [--transport mqtt|serial] [--timing-floor MS] [--no-lead-in] [--fresh-edge]',
  description: [
    'Runs each scenario hardware-in-the-loop: a real edge (`pentagate edge run --mqtt embedded:PORT` on a',
    'free port) with generated keys and signed provenance documents — shared by the scenarios that start it',
    'with the same profile, firmware and calibration, or one per scenario with --fresh-edge — the simulated robot publishing',
    'telemetry over MQTT, the motor controller taking commands from the command topic (or down a socat',
    'serial line with --transport serial), the attacker on the command wire and the simulated operator.',
    'Progress goes to stderr; a summary table (or JSON with --json) to stdout. --report writes a',
    'self-contained HTML report with plots per scenario.',
    '',
    'Before each scenario clock starts, a lead-in streams telemetry and sends one hold-position intent, so a',
    'fresh edge has made its first signature (slow: cold code, seq reservation) before the scenario runs;',
    '--no-lead-in skips it.',
    '',
    "The edge runs with every source's maxAgeMs and command.validForMs raised to at least --timing-floor MS",
    '(default 400): the simulated robot is a JavaScript loop that a loaded machine stalls for 100+ ms now and',
    'then, which the edge would rightly treat as stale data. --timing-floor 0 uses the profile as written.',
    '',
    "Ctrl-C stops the run: the scenario under way is dropped (a terminal's Ctrl-C reaches its edge too), the",
    'edges stop, their state directories (generated keys) are removed and the scenarios that finished are',
    'summarized.',
    '',
    'Exit codes: 0 every expectation held, 1 some failed or a run broke, 2 bad usage or an invalid',
    'scenario file (every problem is listed with its path), 130 stopped by Ctrl-C or SIGTERM.',
    '',
    `Example: pentagate sim run ${relative(process.cwd(), SCENARIO_DIR) || '.'}/*.yaml --report sim.html`,
  ].join('\n'),
  options: {
    json: { type: 'boolean', description: 'print the results as JSON' },
    report: { type: 'string', valueName: 'OUT.html', description: 'write an HTML report here' },
    transport: {
      type: 'string',
      valueName: 'mqtt|serial',
      description: 'how commands reach the controller (default mqtt)',
    },
    'timing-floor': {
      type: 'string',
      valueName: 'MS',
      description: `raise the edge's maxAgeMs and validForMs to at least MS (default ${DEFAULT_TIMING_FLOOR_MS}; 0 = off)`,
    },
    'fresh-edge': {
      type: 'boolean',
      description: 'start a new edge for every scenario instead of sharing one per configuration',
    },
    'no-lead-in': {
      type: 'boolean',
      description: 'start the scenario clock at once (no telemetry lead-in, no hold-position warm-up)',
    },
  },
  positionals: [1, Number.POSITIVE_INFINITY],
  async run(args, io) {
    const transport = (args.options.transport as string | undefined) ?? 'mqtt';
    if (transport !== 'mqtt' && transport !== 'serial') {
      throw new UsageError(`--transport: expected mqtt or serial, got ${JSON.stringify(transport)}`);
    }
    const floorText = args.options['timing-floor'] as string | undefined;
    const timingFloorMs = floorText === undefined ? DEFAULT_TIMING_FLOOR_MS : Number(floorText);
    if (!/^[0-9]+$/.test(floorText ?? '0') || timingFloorMs > 60_000) {
      throw new UsageError(
        `--timing-floor: expected milliseconds 0..60000, got ${JSON.stringify(floorText)}`,
      );
    }
    const report = args.options.report as string | undefined;
    if (report !== undefined) await checkReportTarget(report);
    const loaded: LoadedScenario[] = [];
    for (const file of args.positionals) {
      if (!existsSync(file)) {
        io.err(`pentagate sim run: ${missingScenarioMessage(file)}`);
        return 2;
      }
      try {
        loaded.push(loadScenario(file));
      } catch (err) {
        io.err(`pentagate sim run: ${(err as Error).message}`);
        return 2;
      }
    }
    const results: ScenarioResult[] = [];
    const pool = args.options['fresh-edge'] ? undefined : new CellPool();
    // Ctrl-C stops the run between scenarios, still stopping the edges and removing their state
    // directories (generated keys); kept until then, so a second Ctrl-C cannot cut that clean-up short.
    // The scenario under way is dropped: a terminal's Ctrl-C reaches its edge too.
    let stopped = false;
    const offStop = onStopRequest(() => {
      stopped = true;
    });
    try {
      for (const [i, l] of loaded.entries()) {
        if (stopped) break;
        const label = `[${i + 1}/${loaded.length}] ${l.scenario.name}`;
        let shownQuarter = -1;
        try {
          const run = (o: PoolRunOptions) => (pool ? pool.run(l, o) : runScenario(l, o));
          const result = await run({
            transport,
            leadIn: args.options['no-lead-in'] !== true,
            timingFloorMs,
            onProgress: (t, total) => {
              // A line per quarter: readable in a CI log as well as on a terminal.
              const quarter = Math.floor((t / total) * 4);
              if (quarter === shownQuarter) return;
              shownQuarter = quarter;
              io.err(`${label} ${progressBar(t, total)} ${(t / 1000).toFixed(1)} s`);
            },
          });
          if (stopped) break;
          results.push(result);
          io.err(`${label} ${result.passed ? 'PASS' : 'FAIL'} (${(result.wallMs / 1000).toFixed(1)} s)`);
        } catch (err) {
          if (stopped) break;
          if (!(err instanceof PentagateError)) throw err;
          io.err(`${label} BROKEN: ${err.message}`);
          return 1;
        }
      }
    } finally {
      await pool?.close();
      offStop();
    }
    if (stopped) {
      io.err(`pentagate sim run: stopped after ${results.length} of ${loaded.length} scenario(s)`);
      if (results.length > 0) io.out(summaryTable(results));
      return 130;
    }
    if (report !== undefined) {
      await writeFile(report, renderHtmlReport(results));
      io.err(`report written to ${report}`);
    }
    io.out(args.options.json ? JSON.stringify(results.map(resultJson), null, 2) : summaryTable(results));
    return results.every((r) => r.passed) ? 0 : 1;
  },
};

export const simListCommand: Command = {
  path: ['sim', 'list'],
  summary: 'List the bundled simulator scenarios with a one-line description each',
  usage: '[DIR] [--json]',
  description:
    'Lists the scenarios in DIR (default: the bundled simulator/scenarios) with what each covers.\nExit codes: 0 ok, 2 a scenario file is invalid.',
  options: { json: { type: 'boolean', description: 'print JSON' } },
  positionals: [0, 1],
  async run(args, io) {
    const rows: { name: string; file: string; covers: string[]; description: string }[] = [];
    for (const file of scenarioFiles(args.positionals[0] ?? SCENARIO_DIR)) {
      try {
        const { scenario } = loadScenario(file);
        rows.push({ name: scenario.name, file, covers: scenario.covers, description: scenario.description });
      } catch (err) {
        io.err(`pentagate sim list: ${(err as Error).message}`);
        return 2;
      }
    }
    if (args.options.json) io.out(JSON.stringify(rows, null, 2));
    else {
      const width = Math.max(...rows.map((r) => r.name.length), 8);
      for (const r of rows) io.out(`${r.name.padEnd(width)}  ${r.description}  [${r.covers.join(', ')}]`);
    }
    return 0;
  },
};
