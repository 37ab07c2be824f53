/**
 * Decisions on SQLite. Committing one is the store's widest write: the budget reservation, the audit entry
 * (which carries the signed envelope, decision-envelope.ts), the decision row, the call record and the
 * composed rows (the kernel's proposal row, composed-row.ts), all in one write of the single writer
 * (SqliteStore), so they become durable together or not at all.
 */
import type Database from 'better-sqlite3';
import type { SqliteAudit } from '../audit/sqlite-audit.js';
import type { SqliteBudget } from '../budget/sqlite-budget.js';
import type { SqliteCallHistory } from '../call-history/sqlite-call-history.js';
import { insertSqliteRow, sqliteCount } from '../composed-row.js';
import type { DecisionRecord } from '../records.js';
import { type Row, decisionValues, toDecision } from '../row-mappers.js';
import type { DecisionCommit, DecisionWrite } from '../store.js';
import { signedEnvelopeOf } from './decision-envelope.js';

function prepare(db: Database.Database) {
  return {
    insertDecision: db.prepare(
      `INSERT INTO decisions (id, tenant_id, agent_id, outcome, approved, created_at_ms, subject_digest, policy_digest,
       reserved_amount, audit_index, verdict) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    getDecision: db.prepare(
      `SELECT d.*, a.entry AS audit_entry FROM decisions d JOIN audit_log a ON a.idx = d.audit_index
        WHERE d.id = ? AND d.tenant_id = ?`,
    ),
  };
}

/** The families a decision writes into besides its own row. */
export interface SqliteDecisionFamilies {
  budget: SqliteBudget;
  audit: SqliteAudit;
  calls: SqliteCallHistory;
}

export class SqliteDecisions {
  readonly #db: Database.Database;
  readonly #stmts: ReturnType<typeof prepare>;
  readonly #budget: SqliteBudget;
  readonly #audit: SqliteAudit;
  readonly #calls: SqliteCallHistory;

  constructor(db: Database.Database, { budget, audit, calls }: SqliteDecisionFamilies) {
    this.#db = db;
    this.#stmts = prepare(db);
    this.#budget = budget;
    this.#audit = audit;
    this.#calls = calls;
  }

  /** Inside a write. */
  commitDecision<T>(write: DecisionWrite<T>): DecisionCommit<T> {
    const r = write.reservation;
    const ledger = r
      ? this.#budget.lockedTotals(write.tenantId, write.agentId, r.windowMs, write.nowMs)
      : { spent: 0, reserved: 0 };
    const reserved = !r || ledger.spent + ledger.reserved + r.amount <= r.limit;
    // inside the single writer's transaction: every earlier decision's call row is visible, this batch's too
    const history = write.history && this.#calls.relevantCalls(write.tenantId, write.agentId, write.history);
    const count = write.count && sqliteCount(this.#db, write.count);
    const index = this.#audit.nextAuditIndex();
    const { parts, result } = write.build({
      index,
      reserved,
      ledger,
      ...(history ? { history } : {}),
      ...(count !== undefined ? { count } : {}),
    });
    const d = parts.decision;
    // first: a row whose key is taken (RowConflict) fails the write before anything else is written; the
    // write's savepoint rolls back whatever was, so the decision costs no index and no reservation
    for (const row of parts.rows ?? []) insertSqliteRow(this.#db, row);
    // the built decision may have turned into a veto (a loop limit reached by concurrent calls): no reservation
    const taken = r !== undefined && reserved && d.reservedAmount > 0;
    if (taken) this.#budget.reserve(write.tenantId, write.agentId, r, write.nowMs, d.id);
    const envelope = signedEnvelopeOf(parts);
    const audit = this.#audit.insertAudit(parts.entry, index);
    this.#stmts.insertDecision.run(...decisionValues(d, index, d.approved ? 1 : 0));
    if (parts.call) this.#calls.recordCall(d.id, write.tenantId, write.agentId, parts.call);
    const decision: DecisionRecord = { ...d, auditIndex: index, envelope };
    return { audit, decision, reserved: taken, result };
  }

  getDecision(tenantId: string, decisionId: string): DecisionRecord | undefined {
    const row = this.#stmts.getDecision.get(decisionId, tenantId) as Row | undefined;
    return row && toDecision(row);
  }
}
