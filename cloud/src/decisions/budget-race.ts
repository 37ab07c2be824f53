/**
 * The verdict when an approval loses the budget race: between evaluation and the atomic reservation other
 * calls of the same agent took what was left. The store refused the reservation, so the call is vetoed
 * with ECONOMY.BUDGET_EXCEEDED and a remediation computed from the ledger as it stood under the lock.
 */
import type { PentagonVerdict } from '../pentagon/index.js';
import { amount, budgetRemedy, exceedingAmounts, finding, toViolation } from '../pentagon/violation.js';
import type { LedgerTotals } from '../store/records.js';
import type { ReservationRequest } from '../store/store.js';

/** The arbitration source of the veto: the store's reservation, not an evaluated rule. */
const RACE_SOURCE = 'tier3.economic/reservation';

export function lostBudgetRace(
  verdict: PentagonVerdict,
  reservation: ReservationRequest,
  ledger: LedgerTotals,
): PentagonVerdict {
  const remaining = Math.max(0, reservation.limit - ledger.spent - ledger.reserved);
  const shown = exceedingAmounts(reservation.amount, remaining);
  const message =
    `spend ${shown.spend} exceeds the remaining budget ${shown.remaining} ` +
    '(concurrent calls reserved the rest)';
  const remedy = budgetRemedy('spend_amount', remaining, amount(remaining));
  const { tier1, tier2, tier3 } = verdict.tiers;
  return {
    ...verdict,
    approved: false,
    status: 'DENY',
    reason: `vetoed: ${message}`,
    // worded as every other violation is (`<CODE>: <detail>`, toViolation), so a client reading the code
    // from the `violations` strings finds it here too
    violations: [
      ...verdict.violations,
      toViolation(finding('ECONOMY.BUDGET_EXCEEDED', message, remedy, RACE_SOURCE)),
    ],
    remediation: [...verdict.remediation, remedy],
    reserveAmount: 0,
    tiers: {
      tier1,
      tier2: {
        ...tier2,
        arbitration: {
          ...tier2.arbitration,
          status: 'DENY',
          effects: [
            ...tier2.arbitration.effects,
            { source: RACE_SOURCE, effect: 'deny', code: 'ECONOMY.BUDGET_EXCEEDED' },
          ],
          decidedBy: RACE_SOURCE,
        },
      },
      tier3: {
        economic: {
          ...tier3.economic,
          passed: false,
          budget: {
            ...tier3.economic.budget,
            spentInWindow: ledger.spent,
            reservedInWindow: ledger.reserved,
            remaining,
            reserveAmount: 0,
          },
        },
        simulation: {
          ...tier3.simulation,
          wouldExecute: false,
          effects: [...tier3.simulation.effects, `no budget reserved: ${message}`],
        },
      },
    },
  };
}
