/**
 * The kernel decision, pure: the pentagon (`evaluateAction`) on the governed form of the proposal, the
 * kernel's action-type rules, combined deny-overrides (../pentagon/deny-overrides.ts, the pentagon's own
 * arbitration's combiner). Authorize and replay
 * both call this on the same ReplayInput, so a replay under the same policy reproduces the decision.
 */
import type { TrustStore } from '@pentagate/crypto';
import type { AuthorizationDecision, AuthorizationStatus, Violation } from '@pentagate/protocol';
import { lostBudgetRace } from '../decisions/budget-race.js';
import { NO_POLICY } from '../decisions/decision-statement.js';
import { denyOverrides, type Effect } from '../pentagon/deny-overrides.js';
import type { CallFingerprints } from '../pentagon/fingerprint.js';
import { evaluateAction, type PentagonVerdict } from '../pentagon/index.js';
import { oneLine } from '../pentagon/one-line.js';
import type { LoadedPolicy } from '../policy/index.js';
import { actionRuleFindings } from './action-rules.js';
import { governedActionFor } from './governed-action.js';
import { effectOfCode, kernelViolation } from './kernel-violations.js';
import type { LostRace, ReplayInput } from './replay-input.js';

/** The decision as returned to the agent, without its proof (the proof is added after signing). */
export type DecisionBody = Omit<AuthorizationDecision, 'proof'>;

export interface KernelOutcome {
  decision: DecisionBody;
  verdict: PentagonVerdict;
  /** What the store reserves against the budget (0 for DENY). */
  reserveAmount: number;
  holdMs: number;
}

const MAX_VIOLATIONS = 64;

interface Candidate {
  violation: Violation;
  effect: Effect;
  remediation: string | undefined;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function combine(
  verdict: PentagonVerdict,
  input: ReplayInput,
): { status: AuthorizationStatus; chosen: Candidate[]; holdMs: number } {
  if (input.action.type === 'actuator:stop') {
    // A protective stop is always allowed (action-type.ts): refusing a stop can only make things less safe.
    return { status: 'ALLOW', chosen: [], holdMs: 0 };
  }
  const rules = actionRuleFindings(input.action, input.settings);
  const candidates: Candidate[] = [
    ...verdict.violations.map((v) => ({
      violation: v,
      effect: effectOfCode(v.code),
      remediation: undefined,
    })),
    ...rules.findings.map((f) => ({
      violation: kernelViolation(f),
      effect: effectOfCode(f.code),
      remediation: f.remediation,
    })),
  ];
  const { status, deciding } = denyOverrides(candidates, (c) => c.effect);
  const holdMs =
    status === 'HELD_FOR_VETO' ? Math.max(verdict.tiers.tier2.arbitration.holdMs ?? 0, rules.holdMs) : 0;
  return { status, chosen: deciding, holdMs };
}

function expiryOf(status: AuthorizationStatus, input: ReplayInput, holdUntilMs: number): number {
  const s = input.settings;
  switch (status) {
    case 'ALLOW':
      return input.nowMs + s.executeTtlMs;
    case 'REQUIRE_HUMAN':
      return input.nowMs + s.approvalTtlMs;
    case 'HELD_FOR_VETO':
      return holdUntilMs + s.executeTtlMs;
    default:
      return input.nowMs;
  }
}

/**
 * The signed tiers say how the kernel combined, not only the pentagon: its own findings (confidence,
 * action type, jurisdiction claims) join arbitration's effects, and the status is the decided one.
 */
const REASON_PREFIX: Record<AuthorizationStatus, string> = {
  ALLOW: '',
  DENY: 'denied: ',
  REQUIRE_HUMAN: 'waiting for a human: ',
  HELD_FOR_VETO: 'held for veto: ',
};

function withArbitration(
  verdict: PentagonVerdict,
  status: AuthorizationStatus,
  chosen: Candidate[],
  holdMs: number,
): PentagonVerdict {
  const arbitration = verdict.tiers.tier2.arbitration;
  const known = new Set(arbitration.effects.map((e) => e.code));
  const added = chosen
    .filter((c) => !known.has(c.violation.code))
    .map((c) => ({ source: 'kernel/rules', effect: c.effect, code: c.violation.code }));
  if (added.length === 0 && arbitration.status === status) return verdict;
  const decidedBy =
    status === 'ALLOW' ? 'no-objection' : (chosen[0]?.violation.code ?? arbitration.decidedBy);
  const first = chosen[0]?.violation.message ?? '';
  const more = chosen.length > 1 ? ` (and ${chosen.length - 1} more)` : '';
  const reason =
    verdict.status === status || status === 'ALLOW'
      ? verdict.reason
      : oneLine(`${REASON_PREFIX[status]}${first}${more}`, 2048);
  return {
    ...verdict,
    approved: status === 'ALLOW',
    status,
    reason,
    tiers: {
      tier1: verdict.tiers.tier1,
      tier3: {
        ...verdict.tiers.tier3,
        simulation: { ...verdict.tiers.tier3.simulation, wouldExecute: status === 'ALLOW' },
      },
      tier2: {
        ...verdict.tiers.tier2,
        arbitration: {
          ...arbitration,
          status,
          effects: [...arbitration.effects, ...added],
          decidedBy,
          ...(status === 'HELD_FOR_VETO' ? { holdMs } : {}),
        },
      },
    },
  };
}

/** Decides `input` under `policy` (undefined: none loaded, every call refused), as it was or would be. */
export function decide(
  input: ReplayInput,
  policy: LoadedPolicy | undefined,
  trust: TrustStore,
  lostRace?: LostRace,
  prints?: CallFingerprints,
): KernelOutcome {
  const action = input.governed ?? governedActionFor(input.action, input.agent.lobeName);
  let verdict = evaluateAction({
    action,
    agent: input.agent,
    policy,
    ledger: input.ledger,
    history: input.history,
    trust,
    nowMs: input.nowMs,
    prints,
  });
  if (lostRace) verdict = lostBudgetRace(verdict, lostRace.reservation, lostRace.ledger);
  const { status, chosen, holdMs } = combine(verdict, input);
  const holdUntilMs = input.nowMs + holdMs;
  // the pentagon's remediation (deduplicated, so not aligned with its violations) applies when it decided alike
  const steps = [
    ...(verdict.status === status ? verdict.remediation : []),
    ...chosen.map((c) => c.remediation).filter((r): r is string => r !== undefined),
  ];
  const remediation = [...new Set(steps)].join('; ');
  verdict = withArbitration(verdict, status, chosen, holdMs);
  const decision: DecisionBody = {
    proposalId: input.proposalId,
    status,
    violations: chosen.slice(0, MAX_VIOLATIONS).map((c) => c.violation),
    ...(remediation.length > 0 ? { remediation: oneLine(remediation, 2048) } : {}),
    ...(status === 'HELD_FOR_VETO' ? { holdUntil: iso(holdUntilMs) } : {}),
    expiresAt: iso(expiryOf(status, input, holdUntilMs)),
    policyDigest: policy?.digest ?? NO_POLICY.digest,
  };
  // the spend the pentagon decided on (a spend argument may raise the declared one). A protective stop
  // spends nothing, whatever its payload declares: it is allowed without the budget's say, so a declared
  // spend there would reserve budget that no gate weighed.
  const reserveAmount =
    status === 'DENY' || input.action.type === 'actuator:stop'
      ? 0
      : Math.max(action.spendAmount, verdict.reserveAmount);
  return { decision, verdict, reserveAmount, holdMs };
}
