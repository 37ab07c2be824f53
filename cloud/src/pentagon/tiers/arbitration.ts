/**
 * tier2 `arbitration`: evaluates the tool rules (denied, consent, hold-for-veto) and combines every
 * tier's findings with deny-overrides (../deny-overrides.ts); a hold lasts the longest hold of the matching
 * rules.
 */
import type { ArbitrationTier, AuthorizationStatus } from '@pentagate/protocol';
import { matchesTool } from '../../policy/tool-name-forms.js';
import { denyOverrides } from '../deny-overrides.js';
import type { LoadedPolicy } from '../../policy/loaded-policy.js';
import type { GovernedAction, RuleFinding } from '../types.js';
import { amount, effectOf, finding } from '../violation.js';

/** Findings from the tool rules themselves. */
export function toolRuleFindings(
  policy: LoadedPolicy,
  action: GovernedAction,
): { findings: RuleFinding[]; holdMs: number } {
  const findings: RuleFinding[] = [];
  for (const r of policy.denied) {
    if (!matchesTool(r.tools, action.toolName)) continue;
    findings.push(
      finding(
        'INVARIANT.TOOL_DENIED',
        `${action.toolName} is denied by rule ${r.id}: ${r.reason}`,
        `do not call ${action.toolName}; rule ${r.id} denies it (${r.reason})`,
        `tier2.arbitration/${r.id}`,
      ),
    );
  }
  for (const r of policy.consent) {
    if (!matchesTool(r.tools, action.toolName) || action.spendAmount < r.minSpend) continue;
    findings.push(
      finding(
        'CONSENT.HUMAN_REQUIRED',
        `${action.toolName}${r.minSpend > 0 ? ` spending ${amount(action.spendAmount)} (>= ${amount(r.minSpend)})` : ''} needs an operator's approval (rule ${r.id}): ${r.reason}`,
        r.minSpend > 0
          ? `wait for an operator to approve; ${action.toolName} calls spending ${amount(r.minSpend)} or more need one (rule ${r.id})`
          : `wait for an operator to approve this ${action.toolName} call`,
        `tier2.arbitration/${r.id}`,
      ),
    );
  }
  let holdMs = 0;
  for (const r of policy.holds) {
    if (!matchesTool(r.tools, action.toolName)) continue;
    holdMs = Math.max(holdMs, r.holdMs);
    findings.push(
      finding(
        'CONSENT.HELD_FOR_VETO',
        `${action.toolName} is held for ${r.holdMs} ms so an operator can veto it (rule ${r.id}): ${r.reason}`,
        `wait ${r.holdMs} ms; the call runs unless an operator vetoes it`,
        `tier2.arbitration/${r.id}`,
      ),
    );
  }
  return { findings, holdMs };
}

export interface ArbitrationResult {
  tier: ArbitrationTier;
  status: AuthorizationStatus;
  /** The findings that decided the status (all denies for DENY; consent or hold findings otherwise). */
  deciding: RuleFinding[];
}

export function arbitrate(all: readonly RuleFinding[], holdMs: number): ArbitrationResult {
  const { status, deciding } = denyOverrides(all, (f) => effectOf(f.code));
  const tier: ArbitrationTier = {
    status,
    combining: 'deny-overrides',
    effects: all.map((f) => ({ source: f.source, effect: effectOf(f.code), code: f.code })),
    decidedBy: deciding[0] ? `${deciding[0].source} (${deciding[0].code})` : 'no-objection',
  };
  if (status === 'HELD_FOR_VETO') tier.holdMs = holdMs;
  return { tier, status, deciding };
}
