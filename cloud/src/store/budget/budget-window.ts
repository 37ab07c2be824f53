/**
 * Running budget accounts: what a reservation reads instead of summing every reservation of the window.
 *
 * The budget is a sliding window (pentagon tier3 economic: spent and reserved over the last `windowMs`).
 * Summing the window costs O(calls in the window) per reservation, which grows with the agent's traffic.
 * Each store keeps instead one account row per (tenant, agent, window length): the totals of the
 * reservations created after `cutoffMs`, kept in step by database triggers on every insert and
 * settlement of a reservation inside it (in the writer's own transaction). Moving the window forward
 * subtracts only the reservations created in (old cutoff, new cutoff] — each reservation leaves an account
 * once, so a reservation costs O(1) amortised plus one short index range. The result equals the exact
 * sliding-window sum (the conformance suite checks both against each other).
 *
 * A clock that goes backwards (a replica behind another) cannot un-expire rows, so such a read falls back
 * to the exact sum and leaves the account where it is.
 */
import type { LedgerTotals } from '../records.js';
import { type Row, num } from '../row-mappers.js';

export interface WindowAccount extends LedgerTotals {
  /** The account covers reservations created strictly after this instant. */
  cutoffMs: number;
}

/** A `budget_windows` row (either dialect) as an account; undefined when the agent has none yet. */
export function toWindowAccount(row: Row | undefined): WindowAccount | undefined {
  return row && { cutoffMs: num(row.cutoff_ms), spent: num(row.spent), reserved: num(row.reserved) };
}

export type WindowReadPlan =
  /** No account yet, or the new cutoff is before the account's: sum the window exactly. */
  | { kind: 'exact' }
  /** The account already sits at this cutoff. */
  | { kind: 'current'; account: WindowAccount }
  /** Subtract the reservations created in (fromMs, new cutoff], then move the account there. */
  | { kind: 'advance'; account: WindowAccount; fromMs: number };

export function planWindowRead(account: WindowAccount | undefined, cutoffMs: number): WindowReadPlan {
  if (!account || cutoffMs < account.cutoffMs) return { kind: 'exact' };
  if (cutoffMs === account.cutoffMs) return { kind: 'current', account };
  return { kind: 'advance', account, fromMs: account.cutoffMs };
}

/** The account's totals less what left the window (`expired`, none when the account is current). */
export function windowAfterExpiry(account: LedgerTotals, expired: LedgerTotals | undefined): LedgerTotals {
  if (!expired) return { spent: account.spent, reserved: account.reserved };
  return { spent: account.spent - expired.spent, reserved: account.reserved - expired.reserved };
}
