/**
 * The pentagon's inputs that come from the store, built one way for the kernel's authorize (which serves
 * every route) and its replay (whose stored input must match what was evaluated).
 */
import type { CallRecord, LedgerState } from '../pentagon/types.js';
import type { budgetFor } from '../policy/index.js';
import type { CallHistoryRecord, LedgerTotals } from '../store/records.js';

type BudgetRule = ReturnType<typeof budgetFor>;

/**
 * Most history rows read per call. The pentagon's thresholds compare counts of matching calls (at most a
 * few dozen in any sane policy); rows beyond this many cannot change a verdict that is already a veto.
 */
export const HISTORY_LIMIT = 1024;

/** The agent's budget window: the policy's rule (none → a zero budget) and the store's running totals. */
export function ledgerState(budget: BudgetRule, totals: LedgerTotals): LedgerState {
  return {
    budgetLimit: budget?.amount ?? 0,
    spentInWindow: totals.spent,
    reservedInWindow: totals.reserved,
    windowMs: budget?.windowMs ?? 0,
  };
}

/**
 * Past calls as the metabolic ledger compares them (only the fields it reads), for a call decided at
 * `nowMs`. Every call read was committed before this one; a call evaluated a millisecond after it by a
 * concurrent request (atMs > nowMs) is counted at `nowMs`, since the ledger counts only calls up to its
 * `nowMs` and a loop of concurrent calls would otherwise slip through its limit.
 */
export function callRecords(history: readonly CallHistoryRecord[], nowMs: number): CallRecord[] {
  return history.map((h) => ({
    fingerprint: h.fingerprint,
    nearFingerprint: h.nearFingerprint,
    atMs: Math.min(h.atMs, nowMs),
    approved: h.approved,
    toolName: h.toolName,
    violations: h.violations,
  }));
}
