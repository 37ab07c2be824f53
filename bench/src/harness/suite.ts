/**
 * The shape of a benchmark suite. A suite is a file `bench/src/suites/<name>.ts` whose default export
 * (or export named `suite`) is a `BenchSuite`; `npm run bench -- <name>` finds it by file name, so
 * adding a suite touches no registry.
 */
import type { LatencyStats } from './latency-stats.js';
import type { MeasureOptions } from './measure.js';
import type { CpuPinning } from './cpu-pinning.js';

/** A free-form table row (for figures that are not per-call latencies, e.g. autocannon req/s). */
export interface TableRow {
  name: string;
  [column: string]: string | number;
}

export type Comparison = '<=' | '>=';

/** A target from an issue's "Speed" section, e.g. `trapAndSign p99 <= 100 µs`. */
export interface Target {
  name: string;
  actual: number;
  limit: number;
  comparison: Comparison;
  met: boolean;
  /** Shown after the numbers in the table, e.g. `µs`, `ms`, `×`, `%`. */
  unit?: string;
}

export interface SuiteResult {
  /** The suite's name (its file name). */
  suite: string;
  /**
   * Flat figures keyed without the suite prefix, e.g. `trapAndSign.p99Us`; the runner adds
   * `<suite>.` when it merges them into the top-level `figures` of `--json`.
   */
  figures: Record<string, number>;
  rows: (LatencyStats | TableRow)[];
  targets?: Target[];
  notes?: string[];
  /** Filled in by the runner: how long the suite ran and how much CPU it got meanwhile. */
  run?: SuiteRunInfo;
}

export interface SuiteRunInfo {
  wallMs: number;
  /** User + system CPU time of this process during the run. */
  cpuMs: number;
  /**
   * cpuMs / wallMs. A single-threaded suite on an idle machine is close to 1; well below 1 means the
   * process waited for a CPU (a busy machine) and the latency tails include that wait.
   */
  cpuShare: number;
  /** The CPU the suite was pinned to, when it was. */
  pinnedCpu?: number;
}

export interface SuiteContext {
  /** `--quick`: a smoke run; `measureSync`/`measureAsync` below already shrink their counts. */
  quick: boolean;
  /** Progress and diagnostics (stderr); never write to stdout from a suite. */
  log(message: string): void;
  /** measureSync with the iteration counts shrunk under `--quick`. */
  measureSync(name: string, fn: (i: number) => unknown, options?: MeasureOptions): LatencyStats;
  /** measureAsync with the iteration counts shrunk under `--quick`. */
  measureAsync(
    name: string,
    fn: (i: number) => Promise<unknown>,
    options?: MeasureOptions,
  ): Promise<LatencyStats>;
  /** A count for this run: `full` normally, `quick` (default full / 50, at least 1) under `--quick`. */
  size(full: number, quick?: number): number;
  /**
   * Pins this process (all its threads) to one CPU until `restore()`; for measurements an issue
   * specifies "on one core". A no-op with `pinned: false` where taskset is missing or `--no-pin` was
   * given. Suites with `oneCore: true` are pinned for their whole run by the runner.
   */
  pinToOneCore(): CpuPinning;
}

export interface BenchSuite {
  /** Must equal the file name (`edge` for `suites/edge.ts`). */
  name: string;
  /** One line for the table header and `--help`. */
  description: string;
  /** Run the whole suite pinned to one CPU (see SuiteContext.pinToOneCore). */
  oneCore?: boolean;
  run(ctx: SuiteContext): Promise<SuiteResult>;
}

/** Builds a target row; `met` is computed, never passed in. */
export function target(
  name: string,
  actual: number,
  comparison: Comparison,
  limit: number,
  unit?: string,
): Target {
  const met = Number.isFinite(actual) && (comparison === '<=' ? actual <= limit : actual >= limit);
  return unit === undefined
    ? { name, actual, limit, comparison, met }
    : { name, actual, limit, comparison, met, unit };
}
