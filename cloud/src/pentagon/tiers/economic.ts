/**
 * tier3 `economic`: the budget reserve and the metabolic ledger (ARCHITECTURE.md §3, ECONOMY).
 * Budget: what remains in the window is limit × (1 − reservePercent/100) − spent − reserved; a call that
 * spends more is refused with the exact amount that would fit. The reservation itself is made atomically
 * by the store with `reserveAmount`; this function only decides.
 * Metabolic: repeated identical or near-identical calls within the repeat window, call chains deeper than
 * allowed, and probing — a lobe proposing yet another variant of a tool call the policy keeps denying.
 */
import type { EconomicTier } from '@pentagate/protocol';
import { type LoadedPolicy, budgetFor } from '../../policy/loaded-policy.js';
import type { CallFingerprints } from '../fingerprint.js';
import type { AgentIdentity, CallRecord, GovernedAction, LedgerState, RuleFinding } from '../types.js';
import { amount, budgetRemedy, exceedingAmounts, finding } from '../violation.js';

/**
 * Codes that say nothing about the policy's substance, so they do not count as probing denials. A budget
 * refusal names the amount that fits, and a model that steps down towards it is correcting its attempt as
 * the specification's remediation asks (§1.6), not feeling for a gap: three such steps locked out the
 * corrected call (outside spec review).
 */
const NOT_PROBING_EVIDENCE = new Set([
  'ECONOMY.BUDGET_EXCEEDED',
  'ECONOMY.LOOP_IDENTICAL',
  'ECONOMY.LOOP_NEAR_IDENTICAL',
  'ECONOMY.POLICY_PROBING',
  'ECONOMY.CALL_DEPTH',
  'INVARIANT.EVALUATION_FAILED',
]);

function isProbingEvidence(record: CallRecord): boolean {
  return (
    !record.approved &&
    record.violations.some((c) => !c.startsWith('CONSENT.') && !NOT_PROBING_EVIDENCE.has(c))
  );
}

export interface EconomicResult {
  tier: EconomicTier;
  findings: RuleFinding[];
  remaining: number;
}

export function economicTier(
  policy: LoadedPolicy,
  agent: AgentIdentity,
  action: GovernedAction,
  ledger: LedgerState,
  history: readonly CallRecord[],
  prints: CallFingerprints,
  nowMs: number,
): EconomicResult {
  const findings: RuleFinding[] = [];
  const rule = budgetFor(policy, agent);
  const reservePercent = rule?.reservePercent ?? 0;
  const limit = rule ? ledger.budgetLimit : 0;
  const spendable = (limit * (100 - reservePercent)) / 100;
  const remaining = Math.max(0, spendable - ledger.spentInWindow - ledger.reservedInWindow);
  const spend = action.spendAmount;
  if (spend > 0 && !rule) {
    findings.push(
      finding(
        'ECONOMY.NO_BUDGET',
        `spend ${amount(spend)} but no budget in policy ${policy.id} covers agent ${agent.agentId} or lobe ${agent.lobeName}`,
        `ask an operator to add a budget for lobe ${agent.lobeName}, or call without spend_amount`,
        'tier3.economic/budget',
      ),
    );
  } else if (spend > remaining) {
    const shown = exceedingAmounts(spend, remaining);
    findings.push(
      finding(
        'ECONOMY.BUDGET_EXCEEDED',
        `spend ${shown.spend} exceeds the remaining budget ${shown.remaining} (rule ${rule?.id}: ${amount(limit)} per ${ledger.windowMs} ms, ${amount(reservePercent)}% held in reserve, ${amount(ledger.spentInWindow)} spent, ${amount(ledger.reservedInWindow)} reserved)`,
        `spend ${shown.spend} exceeds the remaining budget ${shown.remaining}: ${budgetRemedy('it', remaining, shown.remaining)}`,
        `tier3.economic/${rule?.id}`,
      ),
    );
  }

  const m = policy.metabolic;
  const inRepeatWindow = history.filter((h) => h.atMs > nowMs - m.repeatWindowMs && h.atMs <= nowMs);
  const identical = inRepeatWindow.filter((h) => h.fingerprint === prints.fingerprint).length;
  const near = inRepeatWindow.filter((h) => h.nearFingerprint === prints.nearFingerprint).length;
  if (identical + 1 > m.maxIdentical) {
    findings.push(
      finding(
        'ECONOMY.LOOP_IDENTICAL',
        `this exact ${action.toolName} call was already proposed ${identical} times in the last ${m.repeatWindowMs} ms; this would be call ${identical + 1} (at most ${m.maxIdentical} allowed)`,
        `do not repeat the same ${action.toolName} call; reuse the earlier result or wait ${m.repeatWindowMs} ms`,
        'tier3.economic/metabolic',
      ),
    );
  } else if (near + 1 > m.maxNearIdentical) {
    findings.push(
      finding(
        'ECONOMY.LOOP_NEAR_IDENTICAL',
        `${near} near-identical ${action.toolName} calls (differing only in numbers, case or spacing) in the last ${m.repeatWindowMs} ms; this would be call ${near + 1} (at most ${m.maxNearIdentical} allowed)`,
        `batch the ${action.toolName} calls into one, or slow down to at most ${m.maxNearIdentical} per ${m.repeatWindowMs} ms`,
        'tier3.economic/metabolic',
      ),
    );
  }
  if (action.callDepth > m.maxCallDepth) {
    findings.push(
      finding(
        'ECONOMY.CALL_DEPTH',
        `call_depth ${action.callDepth} exceeds the maximum ${m.maxCallDepth}`,
        `return to the caller instead of delegating further: call_depth must be ${m.maxCallDepth} or less`,
        'tier3.economic/metabolic',
      ),
    );
  }
  const tool = action.toolName.toLowerCase();
  const deniedVariants = new Set(
    history
      .filter(
        (h) =>
          h.atMs > nowMs - m.probingWindowMs &&
          h.atMs <= nowMs &&
          h.toolName.toLowerCase() === tool &&
          h.fingerprint !== prints.fingerprint &&
          isProbingEvidence(h),
      )
      .map((h) => h.fingerprint),
  ).size;
  if (m.probingEnabled && deniedVariants >= m.maxDeniedVariants) {
    findings.push(
      finding(
        'ECONOMY.POLICY_PROBING',
        `${deniedVariants} different ${action.toolName} calls were denied in the last ${m.probingWindowMs} ms and this is another variant`,
        `stop varying ${action.toolName} calls; ask an operator to review the denials (probing window ${m.probingWindowMs} ms)`,
        'tier3.economic/probing',
      ),
    );
  }
  const budget: EconomicTier['budget'] = {
    limit,
    reservePercent,
    windowMs: ledger.windowMs,
    spentInWindow: ledger.spentInWindow,
    reservedInWindow: ledger.reservedInWindow,
    remaining,
    requested: spend,
    reserveAmount: 0, // set after arbitration
  };
  // Built without an object spread: `{ ...(c ? { k } : {}), … }` takes ~100× longer in V8 11 (Node 20).
  return {
    tier: {
      passed: findings.length === 0,
      budget: rule ? { ruleId: rule.id, ...budget } : budget,
      metabolic: {
        fingerprint: prints.fingerprint,
        nearFingerprint: prints.nearFingerprint,
        identicalInWindow: identical,
        nearIdenticalInWindow: near,
        callDepth: action.callDepth,
        deniedVariantsInWindow: deniedVariants,
      },
    },
    findings,
    remaining,
  };
}
