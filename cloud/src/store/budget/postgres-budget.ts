/**
 * The budget ledger on PostgreSQL: reservations, their settlement, and the running window accounts that
 * budget-window.ts plans. Several replicas reserve for one agent at once, so a reservation's totals are
 * read under the agent's budget_accounts row lock, the first lock of its transaction (then audit_head;
 * a group commit takes all its agents' locks in sorted order first, postgres-group-commit.ts).
 */
import {
  type PostgresClient,
  type PostgresQuery,
  type SqlStatement,
  clientQuery,
} from '../postgres-query.js';
import type { LedgerTotals, ReservationRecord, ReservationState } from '../records.js';
import { type Row, num, toReservation } from '../row-mappers.js';
import type { ReservationRequest } from '../store.js';
import { planWindowRead, toWindowAccount, windowAfterExpiry } from './budget-window.js';

export class PostgresBudget {
  readonly #query: PostgresQuery;

  constructor(query: PostgresQuery) {
    this.#query = query;
  }

  async ledgerTotals(
    tenantId: string,
    agentId: string,
    windowMs: number,
    nowMs: number,
  ): Promise<LedgerTotals> {
    // Outside a transaction: the account and what expired from it in ONE statement (one snapshot), so a
    // settlement committing in between cannot be counted on one side and not the other.
    const cutoffMs = nowMs - windowMs;
    const [row] = await this.#query(READ_WINDOW_SQL, [tenantId, agentId, windowMs, cutoffMs]);
    const account = toWindowAccount(row);
    if (planWindowRead(account, cutoffMs).kind === 'exact') {
      const [exact] = await this.#query(LEDGER_TOTALS_SQL, [tenantId, agentId, cutoffMs]);
      return { spent: num(exact!.spent), reserved: num(exact!.reserved) };
    }
    return windowAfterExpiry(account!, {
      spent: num(row!.expired_spent),
      reserved: num(row!.expired_reserved),
    });
  }

  /**
   * The agent's budget lock, held to COMMIT. A group commit (postgres-group-commit.ts) takes the locks of
   * all its agents, in one sorted order, before anything else; the row is created first if missing.
   * Then the agent's window rows, before audit_head: a settlement (kernel or store) locks them through the
   * reservation trigger and the kernel's then takes audit_head, so a batch that held audit_head while it
   * waited for a window row would close a cycle.
   */
  async lockAccount(c: PostgresClient, tenantId: string, agentId: string): Promise<void> {
    await c.query(
      'INSERT INTO budget_accounts (tenant_id, agent_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [tenantId, agentId],
    );
    // the row lock makes each reservation's read-check-insert one step for every replica (ARCHITECTURE.md §7)
    await c.query('SELECT 1 FROM budget_accounts WHERE tenant_id = $1 AND agent_id = $2 FOR UPDATE', [
      tenantId,
      agentId,
    ]);
    await c.query(
      'SELECT 1 FROM budget_windows WHERE tenant_id = $1 AND agent_id = $2 ORDER BY window_ms FOR UPDATE',
      [tenantId, agentId],
    );
  }

  /**
   * Inside the decision's transaction, under the agent's budget lock (lockAccount): reads the window's
   * totals and moves the account to this window; both stay valid until COMMIT.
   */
  async lockedTotals(
    c: PostgresClient,
    tenantId: string,
    agentId: string,
    windowMs: number,
    nowMs: number,
  ): Promise<LedgerTotals> {
    return advanceWindow(clientQuery(c), tenantId, agentId, windowMs, nowMs);
  }

  /** The reservation's INSERT, for the decision's transaction once the locked totals said it fits. */
  reservationInsert(
    tenantId: string,
    agentId: string,
    r: ReservationRequest,
    nowMs: number,
    decisionId: string,
  ): SqlStatement {
    return {
      sql: `INSERT INTO budget_reservations (id, tenant_id, agent_id, amount, state, created_at_ms, decision_id)
       VALUES ($1, $2, $3, $4, 'reserved', $5, $6)`,
      params: [r.id, tenantId, agentId, r.amount, nowMs, decisionId],
    };
  }

  async settleReservation(
    tenantId: string,
    reservationId: string,
    state: Exclude<ReservationState, 'reserved'>,
  ): Promise<boolean> {
    const rows = await this.#query(
      `UPDATE budget_reservations SET state = $1 WHERE id = $2 AND tenant_id = $3 AND state = 'reserved' RETURNING id`,
      [state, reservationId, tenantId],
    );
    return rows.length === 1;
  }

  async getReservation(tenantId: string, reservationId: string): Promise<ReservationRecord | undefined> {
    const [row] = await this.#query('SELECT * FROM budget_reservations WHERE id = $1 AND tenant_id = $2', [
      reservationId,
      tenantId,
    ]);
    return row && toReservation(row);
  }
}

const LEDGER_TOTALS_SQL = `SELECT COALESCE(SUM(CASE WHEN state = 'committed' THEN amount END), 0) AS spent,
        COALESCE(SUM(CASE WHEN state = 'reserved' THEN amount END), 0) AS reserved
   FROM budget_reservations WHERE tenant_id = $1 AND agent_id = $2 AND created_at_ms > $3`;

/**
 * The agent's account with the sums of the reservations created in (its cutoff, $4]. The sums are a
 * LATERAL subquery, so the account's cutoff is a bound of the index range read (budget_reservations_window)
 * rather than a join filter over every reservation of the agent, which is what a planner without
 * statistics chose for the join (postgres-statistics.ts).
 */
export const READ_WINDOW_SQL = `SELECT w.cutoff_ms, w.spent, w.reserved, x.expired_spent, x.expired_reserved
   FROM budget_windows w
  CROSS JOIN LATERAL (
        SELECT COALESCE(SUM(CASE WHEN r.state = 'committed' THEN r.amount END), 0) AS expired_spent,
               COALESCE(SUM(CASE WHEN r.state = 'reserved' THEN r.amount END), 0) AS expired_reserved
          FROM budget_reservations r
         WHERE r.tenant_id = w.tenant_id AND r.agent_id = w.agent_id
           AND r.created_at_ms > w.cutoff_ms AND r.created_at_ms <= $4) x
  WHERE w.tenant_id = $1 AND w.agent_id = $2 AND w.window_ms = $3`;

/**
 * The window's totals from the agent's running account (budget-window.ts), inside the reservation's
 * transaction under the budget_accounts lock, in one round trip (WINDOW_FROM_ACCOUNT_SQL); only an agent
 * with no account yet takes the exact sum, which opens its account.
 */
async function advanceWindow(
  query: (sql: string, params: unknown[]) => Promise<Row[]>,
  tenantId: string,
  agentId: string,
  windowMs: number,
  nowMs: number,
): Promise<LedgerTotals> {
  const cutoffMs = nowMs - windowMs;
  const [account] = await query(WINDOW_FROM_ACCOUNT_SQL, [tenantId, agentId, windowMs, cutoffMs]);
  if (account) return { spent: num(account.spent), reserved: num(account.reserved) };
  const [exact] = await query(LEDGER_TOTALS_SQL, [tenantId, agentId, cutoffMs]);
  const totals = { spent: num(exact!.spent), reserved: num(exact!.reserved) };
  await query(
    `INSERT INTO budget_windows (tenant_id, agent_id, window_ms, cutoff_ms, spent, reserved)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [tenantId, agentId, windowMs, cutoffMs, totals.spent, totals.reserved],
  );
  return totals;
}

/**
 * The totals of the window after cutoff $4 from the account $1/$2/$3 and the reservations created between
 * the account's cutoff and $4: one statement, because the decision batch holds audit_head meanwhile.
 * - Cutoff at or past the account's (the usual case): the account moves to $4, less those reservations.
 * - Cutoff behind it (decisions of a batch are not in clock order, or a lagging replica): the account
 *   plus those reservations — the exact sum without summing the window — and the account stays.
 * No row when there is no account (LEAST and GREATEST skip the missing cutoff, leaving the empty range
 * ($4, $4]). The bounds are scalar subqueries, so they bound the index range read of the reservations; as a
 * join filter they let a planner without statistics read every reservation of the agent under the
 * audit_head lock (postgres-statistics.ts). The row is locked by the batch (lockAccount), and the agent's
 * reservations are inserted only under its budget_accounts lock, so what is read is what is moved.
 */
export const WINDOW_FROM_ACCOUNT_CTES = `account AS (
  SELECT cutoff_ms, spent, reserved FROM budget_windows
   WHERE tenant_id = $1 AND agent_id = $2 AND window_ms = $3),
between_cutoffs AS (
  SELECT COALESCE(SUM(CASE WHEN r.state = 'committed' THEN r.amount END), 0) AS spent,
         COALESCE(SUM(CASE WHEN r.state = 'reserved' THEN r.amount END), 0) AS reserved
    FROM budget_reservations r
   WHERE r.tenant_id = $1 AND r.agent_id = $2
     AND r.created_at_ms > LEAST((SELECT cutoff_ms FROM account), $4)
     AND r.created_at_ms <= GREATEST((SELECT cutoff_ms FROM account), $4)),
moved AS (
  UPDATE budget_windows w
     SET cutoff_ms = $4, spent = w.spent - b.spent, reserved = w.reserved - b.reserved
    FROM between_cutoffs b
   WHERE w.tenant_id = $1 AND w.agent_id = $2 AND w.window_ms = $3 AND w.cutoff_ms < $4
   RETURNING w.spent, w.reserved)`;

/** The totals WINDOW_FROM_ACCOUNT_CTES leave: one row, or none when the agent has no account. */
export const WINDOW_FROM_ACCOUNT_TOTALS = `SELECT COALESCE(m.spent, a.spent + b.spent) AS spent,
       COALESCE(m.reserved, a.reserved + b.reserved) AS reserved
  FROM account a CROSS JOIN between_cutoffs b LEFT JOIN moved m ON true`;

export const WINDOW_FROM_ACCOUNT_SQL = `WITH ${WINDOW_FROM_ACCOUNT_CTES}
${WINDOW_FROM_ACCOUNT_TOTALS}`;
