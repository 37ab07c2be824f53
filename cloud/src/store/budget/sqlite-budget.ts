/**
 * The budget ledger on SQLite: reservations, their settlement, and the running window accounts that
 * budget-window.ts plans. The single writer (SqliteStore) is the per-agent lock: a reservation's
 * read-check-insert runs inside one write, so nothing can reserve in between.
 */
import type Database from 'better-sqlite3';
import type { LedgerTotals, ReservationRecord, ReservationState } from '../records.js';
import { type Row, num, toReservation } from '../row-mappers.js';
import type { ReservationRequest } from '../store.js';
import { planWindowRead, toWindowAccount, windowAfterExpiry } from './budget-window.js';

function prepare(db: Database.Database) {
  return {
    ledgerTotals: db.prepare(
      `SELECT COALESCE(SUM(CASE WHEN state = 'committed' THEN amount END), 0) AS spent,
              COALESCE(SUM(CASE WHEN state = 'reserved' THEN amount END), 0) AS reserved
         FROM budget_reservations WHERE tenant_id = ? AND agent_id = ? AND created_at_ms > ?`,
    ),
    getBudgetWindow: db.prepare(
      'SELECT cutoff_ms, spent, reserved FROM budget_windows WHERE tenant_id = ? AND agent_id = ? AND window_ms = ?',
    ),
    insertBudgetWindow: db.prepare(
      `INSERT INTO budget_windows (tenant_id, agent_id, window_ms, cutoff_ms, spent, reserved)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    advanceBudgetWindow: db.prepare(
      `UPDATE budget_windows SET cutoff_ms = ?, spent = ?, reserved = ?
        WHERE tenant_id = ? AND agent_id = ? AND window_ms = ?`,
    ),
    // the reservations that left the window since the account's cutoff (covering index, a short range)
    expiredFromWindow: db.prepare(
      `SELECT COALESCE(SUM(CASE WHEN state = 'committed' THEN amount END), 0) AS spent,
              COALESCE(SUM(CASE WHEN state = 'reserved' THEN amount END), 0) AS reserved
         FROM budget_reservations
        WHERE tenant_id = ? AND agent_id = ? AND created_at_ms > ? AND created_at_ms <= ?`,
    ),
    insertReservation: db.prepare(
      `INSERT INTO budget_reservations (id, tenant_id, agent_id, amount, state, created_at_ms, decision_id)
       VALUES (?, ?, ?, ?, 'reserved', ?, ?)`,
    ),
    settleReservation: db.prepare(
      `UPDATE budget_reservations SET state = ? WHERE id = ? AND tenant_id = ? AND state = 'reserved'`,
    ),
    getReservation: db.prepare('SELECT * FROM budget_reservations WHERE id = ? AND tenant_id = ?'),
  };
}

export class SqliteBudget {
  readonly #stmts: ReturnType<typeof prepare>;

  constructor(db: Database.Database) {
    this.#stmts = prepare(db);
  }

  ledgerTotals(tenantId: string, agentId: string, windowMs: number, nowMs: number): LedgerTotals {
    return this.#windowTotals(tenantId, agentId, windowMs, nowMs, false);
  }

  /**
   * Inside the decision's write (the single writer is the agent's lock): the window's totals, with the
   * account moved to this window.
   */
  lockedTotals(tenantId: string, agentId: string, windowMs: number, nowMs: number): LedgerTotals {
    return this.#windowTotals(tenantId, agentId, windowMs, nowMs, true);
  }

  /**
   * The window's totals from the agent's running account (budget-window.ts): the account minus what fell
   * out of the window since it was last advanced — O(expired rows), not O(rows in the window). `advance`
   * (inside a write) moves the account to this window, or opens it with one exact sum.
   */
  #windowTotals(
    tenantId: string,
    agentId: string,
    windowMs: number,
    nowMs: number,
    advance: boolean,
  ): LedgerTotals {
    const cutoffMs = nowMs - windowMs;
    const row = this.#stmts.getBudgetWindow.get(tenantId, agentId, windowMs) as Row | undefined;
    const account = toWindowAccount(row);
    const plan = planWindowRead(account, cutoffMs);
    if (plan.kind === 'exact') {
      const exact = this.#stmts.ledgerTotals.get(tenantId, agentId, cutoffMs) as Row;
      const totals = { spent: num(exact.spent), reserved: num(exact.reserved) };
      if (advance && !account) {
        this.#stmts.insertBudgetWindow.run(
          tenantId,
          agentId,
          windowMs,
          cutoffMs,
          totals.spent,
          totals.reserved,
        );
      }
      return totals;
    }
    const expired =
      plan.kind === 'advance'
        ? (this.#stmts.expiredFromWindow.get(tenantId, agentId, plan.fromMs, cutoffMs) as Row)
        : undefined;
    const totals = windowAfterExpiry(
      plan.account,
      expired && { spent: num(expired.spent), reserved: num(expired.reserved) },
    );
    if (advance && plan.kind === 'advance') {
      this.#stmts.advanceBudgetWindow.run(
        cutoffMs,
        totals.spent,
        totals.reserved,
        tenantId,
        agentId,
        windowMs,
      );
    }
    return totals;
  }

  /** Inside the decision's write, once the totals said it fits. */
  reserve(tenantId: string, agentId: string, r: ReservationRequest, nowMs: number, decisionId: string): void {
    this.#stmts.insertReservation.run(r.id, tenantId, agentId, r.amount, nowMs, decisionId);
  }

  /** Inside a write. */
  settleReservation(
    tenantId: string,
    reservationId: string,
    state: Exclude<ReservationState, 'reserved'>,
  ): boolean {
    return this.#stmts.settleReservation.run(state, reservationId, tenantId).changes === 1;
  }

  getReservation(tenantId: string, reservationId: string): ReservationRecord | undefined {
    const row = this.#stmts.getReservation.get(reservationId, tenantId) as Row | undefined;
    return row && toReservation(row);
  }
}
