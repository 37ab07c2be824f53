/**
 * tier3 `simulation`: the budget and effects after the call if it goes ahead, so an agent (or the
 * operator approving it) sees the consequence before it happens.
 */
import type { AuthorizationStatus, SimulationTier } from '@pentagate/protocol';
import type { GovernedAction, LedgerState } from '../types.js';
import { amount } from '../violation.js';

export function simulationTier(
  action: GovernedAction,
  ledger: LedgerState,
  status: AuthorizationStatus,
  remainingBefore: number,
  limit: number,
  protectedHits: number,
  holdMs: number | undefined,
): SimulationTier {
  const reserve = status === 'DENY' ? 0 : action.spendAmount;
  const spentAfter = ledger.spentInWindow + ledger.reservedInWindow + reserve;
  const remainingAfter = Math.max(0, remainingBefore - reserve);
  const effects: string[] = [];
  if (status === 'DENY')
    effects.push(`nothing runs; the budget stays at ${amount(remainingBefore)} remaining`);
  else if (reserve > 0)
    effects.push(`reserves ${amount(reserve)}; ${amount(remainingAfter)} remains in the window`);
  else effects.push('spends nothing from the budget');
  if (status === 'ALLOW') effects.push(`${action.toolName} runs now`);
  if (status === 'REQUIRE_HUMAN')
    effects.push(`${action.toolName} waits for an operator; the reservation is released if denied`);
  if (status === 'HELD_FOR_VETO')
    effects.push(`${action.toolName} runs after ${holdMs ?? 0} ms unless vetoed`);
  if (protectedHits > 0) effects.push(`would touch ${protectedHits} protected resource(s)`);
  return {
    wouldExecute: status === 'ALLOW',
    projected: {
      spentAfter,
      remainingAfter,
      utilisationPercent: limit > 0 ? Math.round((spentAfter / limit) * 1e4) / 100 : spentAfter > 0 ? 100 : 0,
    },
    effects,
  };
}
