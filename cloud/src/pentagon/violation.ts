/** Builds wire violations from rule findings: the code's vertex from VIOLATION_CODES, a clean message. */
import { MAX_TEXT_LENGTH, VIOLATION_CODES, type Violation, type ViolationCode } from '@pentagate/protocol';
import type { Effect } from './deny-overrides.js';
import { oneLine } from './one-line.js';
import type { RuleFinding } from './types.js';

export function finding(
  code: ViolationCode,
  message: string,
  remediation: string,
  source: string,
): RuleFinding {
  return { code, message, remediation, source };
}

export function toViolation(f: RuleFinding): Violation {
  const info = VIOLATION_CODES[f.code as ViolationCode];
  return {
    code: f.code,
    vertex: info?.vertex ?? 'INVARIANT',
    message: oneLine(`${f.code}: ${f.message}`, MAX_TEXT_LENGTH) || f.code,
  };
}

/** Whether a code denies, or only asks a human. Unknown codes deny (fail closed). */
export function effectOf(code: string): Effect {
  return VIOLATION_CODES[code as ViolationCode]?.effect ?? 'deny';
}

/**
 * Amounts in messages: up to 6 decimals, no trailing zeros (`500`, `12.5`). Above ~1.8e302, n × 1e6
 * overflows to Infinity: such a (finite) amount is written as given.
 */
export function amount(n: number): string {
  const rounded = Math.round(n * 1e6) / 1e6;
  return String(Number.isFinite(rounded) ? rounded : n);
}

/**
 * The remedy for a spend over the remaining budget, `what` naming the spend. With nothing left, "lower it
 * to 0" would only invite a spend declared as nothing: the remedy is then to wait or ask.
 */
export function budgetRemedy(what: string, remaining: number, shownRemaining: string): string {
  return remaining > 0
    ? `lower ${what} to ${shownRemaining} or less, or ask for approval`
    : 'nothing remains in this budget window; wait until earlier spending leaves the window, or ask for approval';
}

/**
 * A spend and the budget it exceeds, each as `amount` writes it unless that makes them read the same
 * ("spend 1000 exceeds the remaining budget 1000" for 1000.0000001): then in full.
 */
export function exceedingAmounts(spend: number, remaining: number): { spend: string; remaining: string } {
  const shown = { spend: amount(spend), remaining: amount(remaining) };
  return shown.spend === shown.remaining ? { spend: String(spend), remaining: String(remaining) } : shown;
}
