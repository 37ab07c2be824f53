/**
 * `npm run bench`: parse the command line, load the requested suites, run them one after another
 * and print either the tables or one JSON object. Exit 0 when every suite ran (unmet targets are
 * reported with ✗, they do not fail the run), 1 when a suite threw, 2 for bad usage.
 */
import { loadavg } from 'node:os';
import { type CliIo, ExitCode, UsageError, processIo } from '@pentagate/protocol';
import { BENCH_USAGE, type BenchArgs, parseBenchArgs } from './bench-args.js';
import { formatMachine, formatSuiteResult } from './format-table.js';
import { type MachineInfo, machineInfo } from './machine.js';
import { timerOverheadNs } from './measure.js';
import { elapsedNs, nowNs } from './clock.js';
import type { BenchSuite, SuiteResult, SuiteRunInfo } from './suite.js';
import { createSuiteContext } from './suite-context.js';
import { DEFAULT_SUITES_DIR, checkSuiteNames, listSuites, loadSuite } from './suite-loader.js';

/** The one object `--json` prints. */
export interface BenchReport {
  machine: MachineInfo;
  suites: Record<string, SuiteResult>;
  /** Every suite's figures with the suite name in front: `crypto.hmacSign.p99Us`. */
  figures: Record<string, number>;
  /** Suites that threw, with the error message. Absent when none did. */
  failures?: Record<string, string>;
}

export interface RunBenchOptions {
  /** Where suites are looked up (default: the suites folder next to the harness). */
  suitesDir?: string;
}

/** Below this CPU share a single-threaded suite was clearly competing for the CPU. */
const BUSY_CPU_SHARE = 0.8;

function runInfo(startNs: bigint, cpu: NodeJS.CpuUsage, pinnedCpu: number | undefined): SuiteRunInfo {
  const wallMs = elapsedNs(startNs, nowNs()) / 1e6;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const info: SuiteRunInfo = { wallMs, cpuMs, cpuShare: wallMs > 0 ? cpuMs / wallMs : 0 };
  if (pinnedCpu !== undefined) info.pinnedCpu = pinnedCpu;
  return info;
}

async function runOne(suite: BenchSuite, args: BenchArgs, io: CliIo): Promise<SuiteResult> {
  const { ctx, release } = createSuiteContext({
    quick: args.quick,
    pin: args.pin,
    ...(args.cpu === undefined ? {} : { cpu: args.cpu }),
    log: (message) => io.err(`[${suite.name}] ${message}`),
  });
  const notes: string[] = [];
  try {
    const pinning = suite.oneCore === true ? ctx.pinToOneCore() : undefined;
    if (pinning !== undefined) notes.push(pinning.how);
    const cpuBefore = process.cpuUsage();
    const startNs = nowNs();
    const result = await suite.run(ctx);
    const run = runInfo(startNs, process.cpuUsage(cpuBefore), pinning?.cpu);
    if (result.suite !== suite.name) {
      throw new TypeError(`suite ${suite.name} returned a result for ${JSON.stringify(result.suite)}`);
    }
    for (const [key, value] of Object.entries(result.figures)) {
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new TypeError(
          `suite ${suite.name}: figure ${key} must be a finite number, got ${String(value)}`,
        );
      }
    }
    if (args.quick) notes.push('--quick: iteration counts shrunk; the numbers are not meaningful');
    if (run.cpuShare < BUSY_CPU_SHARE) {
      notes.push(
        `the process got ${(run.cpuShare * 100).toFixed(0)} % of a CPU while it ran (load ${loadavg()[0]?.toFixed(1)}): ` +
          'the machine was busy, so tails include waiting for a CPU; compare p50s, or rerun on a quiet machine',
      );
    }
    return { ...result, notes: [...notes, ...(result.notes ?? [])], run };
  } finally {
    release();
  }
}

export async function runBench(
  argv: readonly string[],
  io: CliIo = processIo,
  options: RunBenchOptions = {},
): Promise<number> {
  const dir = options.suitesDir ?? DEFAULT_SUITES_DIR;
  let args: BenchArgs;
  try {
    args = parseBenchArgs(argv);
    const available = listSuites(dir);
    if (args.help) {
      io.out(`${BENCH_USAGE}\nAvailable suites: ${available.join(', ') || '(none found)'}`);
      return ExitCode.ok;
    }
    checkSuiteNames(args.suites, available);
    if (args.suites.length === 0) args.suites = available;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`bench: ${error.message}`);
    return ExitCode.usage;
  }

  io.err('bench: measuring the harness overhead…');
  const machine = machineInfo(timerOverheadNs(args.quick ? 10_000 : 200_000));
  if (!args.json) io.out(formatMachine(machine));
  const report: BenchReport = { machine, suites: {}, figures: {} };
  const failures: Record<string, string> = {};

  for (const name of args.suites) {
    io.err(`bench: running ${name}${args.quick ? ' (quick)' : ''}…`);
    try {
      const suite = await loadSuite(name, dir);
      const result = await runOne(suite, args, io);
      report.suites[name] = result;
      for (const [key, value] of Object.entries(result.figures)) report.figures[`${name}.${key}`] = value;
      if (!args.json) io.out(`\n${formatSuiteResult(result, suite.description)}`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      failures[name] = message;
      io.err(`bench: suite ${name} failed: ${error instanceof Error && error.stack ? error.stack : message}`);
    }
  }

  if (Object.keys(failures).length > 0) report.failures = failures;
  if (args.json) io.out(JSON.stringify(report, null, 2));
  return Object.keys(failures).length > 0 ? ExitCode.invalid : ExitCode.ok;
}
