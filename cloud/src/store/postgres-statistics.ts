/**
 * Planner statistics for the tables every decision reads, refreshed by the store as they grow.
 *
 * Why: a table that was never analysed has no statistics, and PostgreSQL then costs every index whose
 * leading columns match at one row. The call-history read of a decision (tenant, agent and fingerprint,
 * call_history_fingerprint) tied with call_history_denied (tenant, agent, tool…), which was picked and
 * filtered the agent's whole history: 6.8 ms for 11,000 calls instead of 0.1 ms, growing with every call,
 * and spent under the audit_head lock that every replica's decision batch takes. After one ANALYZE the
 * planner takes the right index. The autovacuum daemon analyses tables too, but only on its next round
 * (autovacuum_naptime, a minute by default) after a table grew, and not at all where it is turned off (as
 * on this project's test server): a new deployment under load would plan blind until then.
 *
 * The rule is autovacuum's own (docs, "The Autovacuum Daemon"): a table is analysed once the rows written
 * since its last analysis exceed autovacuum_analyze_threshold (50) plus autovacuum_analyze_scale_factor
 * (0.1) times its rows then — here counted from the decisions this process commits, each of which writes
 * at most one row into each table below — so the cost is one sampled ANALYZE per 10 % of growth, the first
 * after 50 decisions of the process (also on a database that was never analysed). One
 * ANALYZE at a time, outside any decision batch (it takes a SHARE UPDATE EXCLUSIVE lock, which writers do
 * not wait for); a failure only leaves the statistics as they were.
 */
import type { PostgresQuery } from './postgres-query.js';

/**
 * The tables a decision writes (at most one row each) and reads back through secondary indexes.
 *
 * Not audit_log, though a decision writes one entry there too. A decision reads it only by its primary key,
 * which needs no statistics, and the console's filters are read through their indexes, whose plans
 * audit-events-index.test.ts checks on a log that was never analysed. (When those were expression indexes,
 * its ANALYZE parsed every sampled ~4 KB entry once per expression: 660 ms for 3,000 entries, against
 * ~40 ms for the three tables here together, and each replica ran its own.)
 */
export const DECISION_TABLES = ['call_history', 'budget_reservations', 'decisions'] as const;

/** autovacuum_analyze_threshold and autovacuum_analyze_scale_factor, at their defaults. */
export const ANALYZE_THRESHOLD_ROWS = 50;
export const ANALYZE_SCALE_FACTOR = 0.1;

export class PostgresStatistics {
  readonly #query: PostgresQuery;
  readonly #track: <T>(operation: Promise<T>) => Promise<T>;
  #rowsAtAnalyze = 0;
  #writtenSinceAnalyze = 0;
  #running: Promise<void> | undefined;

  /** `track`: the store's in-flight tracking, so close() waits for a running ANALYZE. */
  constructor(query: PostgresQuery, track: <T>(operation: Promise<T>) => Promise<T>) {
    this.#query = query;
    this.#track = track;
  }

  /** Settles once no ANALYZE is running (tests read plans after it). */
  settled(): Promise<void> {
    return this.#running ?? Promise.resolve();
  }

  /** `rows` decisions were committed (each wrote at most one row into each table of DECISION_TABLES). */
  written(rows: number): void {
    this.#writtenSinceAnalyze += rows;
    if (this.#writtenSinceAnalyze > ANALYZE_THRESHOLD_ROWS + ANALYZE_SCALE_FACTOR * this.#rowsAtAnalyze) {
      this.#start();
    }
  }

  #start(): void {
    if (this.#running) return;
    this.#writtenSinceAnalyze = 0;
    this.#running = this.#track(this.#analyze()).finally(() => {
      this.#running = undefined;
    });
  }

  async #analyze(): Promise<void> {
    try {
      await this.#query(`ANALYZE ${DECISION_TABLES.join(', ')}`);
      const [row] = await this.#query(
        `SELECT reltuples FROM pg_class WHERE oid = to_regclass('call_history')`,
      );
      this.#rowsAtAnalyze = Math.max(0, Number(row?.reltuples ?? 0));
    } catch {
      // an optimisation only: the plans stay as they were, and the next batch of writes tries again
    }
  }
}
