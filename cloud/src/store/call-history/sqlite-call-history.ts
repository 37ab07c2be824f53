/**
 * The call history on SQLite: one row per decided call, what the metabolic ledger (pentagon tier3
 * economic) reads back to spot repeats and probing. The row is written by the decision's write
 * (decisions/sqlite-decisions.ts); the look-ups are tuned for SQLite's planner, see relevantCalls.
 */
import type Database from 'better-sqlite3';
import type { CallHistoryRecord } from '../records.js';
import { type Row, callValues, num, toCall } from '../row-mappers.js';
import type { DecisionParts, RelevantCallsQuery } from '../store.js';
import { StoreError } from '../store-error.js';

type CallParts = NonNullable<DecisionParts['call']>;

function prepare(db: Database.Database) {
  return {
    recentCalls: db.prepare(
      'SELECT * FROM call_history WHERE tenant_id = ? AND agent_id = ? AND at_ms >= ? ORDER BY at_ms DESC, rowid DESC LIMIT ?',
    ),
    insertCall: db.prepare(
      `INSERT INTO call_history (decision_id, tenant_id, agent_id, tool_name, tool_key, fingerprint, near_fingerprint,
       at_ms, approved, violations) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  };
}

export class SqliteCallHistory {
  readonly #db: Database.Database;
  readonly #stmts: ReturnType<typeof prepare>;
  readonly #historyByLimit = new Map<
    number,
    Record<'byFingerprint' | 'byNearFingerprint' | 'deniedOfTool', Database.Statement>
  >();

  constructor(db: Database.Database) {
    this.#db = db;
    this.#stmts = prepare(db);
  }

  /** Inside the decision's write. */
  recordCall(decisionId: string, tenantId: string, agentId: string, c: CallParts): void {
    this.#stmts.insertCall.run(...callValues(decisionId, tenantId, agentId, c, c.approved ? 1 : 0));
  }

  recentCalls(tenantId: string, agentId: string, sinceMs: number, limit: number): CallHistoryRecord[] {
    const rows = this.#stmts.recentCalls.all(tenantId, agentId, sinceMs, limit) as Row[];
    return rows.map(toCall).reverse();
  }

  /**
   * The relevantCalls statements for one row limit, prepared once per limit. The limit is a literal, not a
   * bound parameter: measured on SQLite 3.4x, `LIMIT ?` made each of these lookups ~6× slower (≈15 µs vs
   * 2.5 µs on an empty match) than the same statement with the number written in.
   */
  #historyStatements(limit: number) {
    let prepared = this.#historyByLimit.get(limit);
    if (!prepared) {
      if (!Number.isSafeInteger(limit) || limit < 1) {
        throw new StoreError(`relevantCalls: expected a positive integer limit, got ${limit}`);
      }
      const newestFirst = `ORDER BY at_ms DESC, rowid DESC LIMIT ${limit}`;
      prepared = {
        byFingerprint: this.#db.prepare(
          `SELECT rowid AS seq, * FROM call_history
            WHERE tenant_id = ? AND agent_id = ? AND fingerprint = ? AND at_ms >= ? ${newestFirst}`,
        ),
        byNearFingerprint: this.#db.prepare(
          `SELECT rowid AS seq, * FROM call_history
            WHERE tenant_id = ? AND agent_id = ? AND near_fingerprint = ? AND at_ms >= ? ${newestFirst}`,
        ),
        deniedOfTool: this.#db.prepare(
          `SELECT rowid AS seq, * FROM call_history
            WHERE tenant_id = ? AND agent_id = ? AND tool_key = ? AND approved = 0 AND at_ms >= ? ${newestFirst}`,
        ),
      };
      this.#historyByLimit.set(limit, prepared);
    }
    return prepared;
  }

  relevantCalls(tenantId: string, agentId: string, q: RelevantCallsQuery): CallHistoryRecord[] {
    // Three ordered index range reads merged here: SQLite's compound UNION over `SELECT *` sorted and
    // compared whole rows in temporary b-trees, several times the cost of the lookups themselves.
    const s = this.#historyStatements(q.limit);
    const parts = [
      s.byFingerprint.all(tenantId, agentId, q.fingerprint, q.repeatSinceMs),
      s.byNearFingerprint.all(tenantId, agentId, q.nearFingerprint, q.repeatSinceMs),
      s.deniedOfTool.all(tenantId, agentId, q.toolName.toLowerCase(), q.deniedSinceMs),
    ] as Row[][];
    const seen = new Set<number>();
    const rows: Row[] = [];
    for (const part of parts) {
      for (const row of part) {
        const seq = num(row.seq);
        if (!seen.has(seq)) {
          seen.add(seq);
          rows.push(row);
        }
      }
    }
    // newest first (as each part is), keep `limit`, return oldest first
    rows.sort((a, b) => num(b.at_ms) - num(a.at_ms) || num(b.seq) - num(a.seq));
    return rows.slice(0, q.limit).map(toCall).reverse();
  }
}
