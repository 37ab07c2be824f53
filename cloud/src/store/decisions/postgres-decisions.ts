/**
 * Decisions on PostgreSQL. Committing one is the store's widest write: the window totals under the agent's
 * budget lock, the audit index under the audit_head lock (the group commit took both, in that order, before
 * this write: postgres-group-commit.ts), then the reservation, the audit entry carrying the signed envelope
 * (decision-envelope.ts), the decision row, the call record and the composed rows (the kernel's proposal
 * row, composed-row.ts); all commit together or not at all.
 */
import type { PostgresAudit } from '../audit/postgres-audit.js';
import {
  type PostgresBudget,
  WINDOW_FROM_ACCOUNT_CTES,
  WINDOW_FROM_ACCOUNT_TOTALS,
} from '../budget/postgres-budget.js';
import {
  type PostgresCallHistory,
  RELEVANT_CALLS_SQL,
  relevantCallsParams,
} from '../call-history/postgres-call-history.js';
import { postgresCount, postgresRowConflict, postgresRowInsert } from '../composed-row.js';
import {
  type PostgresClient,
  type PostgresQuery,
  clientQuery,
  oneStatement,
  paramsAfter,
} from '../postgres-query.js';
import type { CallHistoryRecord, DecisionRecord, LedgerTotals } from '../records.js';
import { type Row, decisionValues, num, toCall, toDecision } from '../row-mappers.js';
import type { DecisionCommit, DecisionWrite, RelevantCallsQuery, ReservationRequest } from '../store.js';
import { signedEnvelopeOf } from './decision-envelope.js';

/** The families a decision writes into besides its own row. */
export interface PostgresDecisionFamilies {
  budget: PostgresBudget;
  audit: PostgresAudit;
  calls: PostgresCallHistory;
}

export class PostgresDecisions {
  readonly #query: PostgresQuery;
  readonly #budget: PostgresBudget;
  readonly #audit: PostgresAudit;
  readonly #calls: PostgresCallHistory;

  constructor(query: PostgresQuery, { budget, audit, calls }: PostgresDecisionFamilies) {
    this.#query = query;
    this.#budget = budget;
    this.#audit = audit;
    this.#calls = calls;
  }

  /**
   * Runs in a group commit's savepoint, which already holds the agent's budget lock (when `write` reserves)
   * and the audit_head lock; `nextIndex` hands out the batch's next audit index. The entry and the signed
   * envelope are built for that index, so it is taken only once the totals are read.
   */
  async commitDecision<T>(
    c: PostgresClient,
    write: DecisionWrite<T>,
    nextIndex: () => number,
  ): Promise<DecisionCommit<T>> {
    const r = write.reservation;
    let ledger: LedgerTotals | undefined;
    let history: CallHistoryRecord[] | undefined;
    // after the audit_head lock every batch of every replica takes: all earlier decisions are committed or
    // in this batch, so the call rows read here include the ones decided concurrently with this one
    if (r && write.history) {
      ({ ledger, history } = await lockedReads(
        c,
        write.tenantId,
        write.agentId,
        r,
        write.nowMs,
        write.history,
      ));
    } else if (write.history) {
      history = await this.#calls.relevantCalls(write.tenantId, write.agentId, write.history, clientQuery(c));
    }
    // the window on its own: no history to read with it, or no account yet (the agent's first reservation
    // in this window length, whose exact sum opens the account)
    if (r && ledger === undefined) {
      ledger = await this.#budget.lockedTotals(c, write.tenantId, write.agentId, r.windowMs, write.nowMs);
    }
    ledger ??= { spent: 0, reserved: 0 };
    const reserved = !r || ledger.spent + ledger.reserved + r.amount <= r.limit;
    // under the audit_head lock every decision batch of every replica holds to COMMIT: no other decision
    // commits between this count and this write (one more round trip, for the writes that ask: few)
    const count = write.count && (await postgresCount(c, write.count));
    const index = nextIndex();
    const { parts, result } = write.build({
      index,
      reserved,
      ledger,
      ...(history ? { history } : {}),
      ...(count !== undefined ? { count } : {}),
    });
    const d = parts.decision;
    // the built decision may have turned into a veto (a loop limit reached by concurrent calls): no reservation
    const taken = r !== undefined && reserved && d.reservedAmount > 0;
    const composed = parts.rows ?? [];
    const envelope = signedEnvelopeOf(parts);
    const audit = this.#audit.auditInsert(parts.entry, index);
    // the rows in ONE statement: the batch holds the budget and audit_head locks meanwhile, so every round
    // trip here is time no other decision of any replica can commit
    const rows = oneStatement([
      ...(taken ? [this.#budget.reservationInsert(write.tenantId, write.agentId, r, write.nowMs, d.id)] : []),
      audit.statement,
      {
        sql: `INSERT INTO decisions (id, tenant_id, agent_id, outcome, approved, created_at_ms, subject_digest, policy_digest,
       reserved_amount, audit_index, verdict) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        params: decisionValues(d, index, d.approved),
      },
      ...(parts.call ? [this.#calls.callInsert(d.id, write.tenantId, write.agentId, parts.call)] : []),
      ...composed.map(postgresRowInsert),
    ]);
    try {
      await c.query(rows.sql, rows.params);
    } catch (err) {
      // a composed row's key is taken: the batch rolls this savepoint back, and the caller is told so
      throw postgresRowConflict(err, composed) ?? err;
    }
    const decision: DecisionRecord = { ...d, auditIndex: index, envelope };
    return { audit: audit.record, decision, reserved: taken, result };
  }

  async getDecision(tenantId: string, decisionId: string): Promise<DecisionRecord | undefined> {
    const [row] = await this.#query(
      `SELECT d.*, a.entry AS audit_entry FROM decisions d JOIN audit_log a ON a.idx = d.audit_index
        WHERE d.id = $1 AND d.tenant_id = $2`,
      [decisionId, tenantId],
    );
    return row && toDecision(row);
  }
}

/**
 * The budget window (read and moved to this decision's cutoff, WINDOW_FROM_ACCOUNT_CTES) and the call
 * history (RELEVANT_CALLS_SQL, its eight parameters after the window's four) in ONE statement: both are read
 * under the budget and audit_head locks, where every round trip is time no decision of any replica can
 * commit. `totals` is null when the agent has no account yet; `calls` come oldest first, as relevantCalls
 * gives them.
 */
const LOCKED_READS_SQL = `WITH ${WINDOW_FROM_ACCOUNT_CTES},
totals AS (${WINDOW_FROM_ACCOUNT_TOTALS}),
calls AS (${paramsAfter(RELEVANT_CALLS_SQL, 4)})
SELECT (SELECT row_to_json(t) FROM totals t) AS totals,
       (SELECT COALESCE(json_agg(c ORDER BY c.at_ms, c.seq), '[]'::json) FROM calls c) AS calls`;

async function lockedReads(
  c: PostgresClient,
  tenantId: string,
  agentId: string,
  r: ReservationRequest,
  nowMs: number,
  q: RelevantCallsQuery,
): Promise<{ ledger: LedgerTotals | undefined; history: CallHistoryRecord[] }> {
  const params = [
    tenantId,
    agentId,
    r.windowMs,
    nowMs - r.windowMs,
    ...relevantCallsParams(tenantId, agentId, q),
  ];
  const [row] = (await c.query(LOCKED_READS_SQL, params)).rows as Row[];
  const totals = row?.totals as Row | null | undefined;
  return {
    ledger: totals ? { spent: num(totals.spent), reserved: num(totals.reserved) } : undefined,
    history: ((row?.calls as Row[] | undefined) ?? []).map(toCall),
  };
}
