/**
 * The digital pentagon: evaluates one governed action against the tenant policy in three tiers
 * (ARCHITECTURE.md §5) and returns the verdict. Pure and deterministic in its input — the kernel's replay
 * re-runs it on the stored input — and it never throws: an input it cannot evaluate is refused with
 * INVARIANT.EVALUATION_FAILED (fail closed), and a missing policy with INVARIANT.NO_POLICY.
 */
import type { VerdictTiers } from '@pentagate/protocol';
import { loadPolicy } from '../policy/load-policy.js';
import type { LoadedPolicy } from '../policy/loaded-policy.js';
import { sha256HexOfText } from './digest.js';
import { callFingerprints, fingerprintScope, fingerprintsOfSafe } from './fingerprint.js';
import { type JsonSafe, jsonSafe } from './json-safe.js';
import { oneLine } from './one-line.js';
import { arbitrate, toolRuleFindings } from './tiers/arbitration.js';
import { economicTier } from './tiers/economic.js';
import { jurisdictionTier } from './tiers/jurisdiction.js';
import { proofFirewallTier } from './tiers/proof-firewall.js';
import { simulationTier } from './tiers/simulation.js';
import { spendFromArguments } from './tiers/spend-arguments.js';
import { ZK_INFERENCE_NOTE, zkInferenceTier } from './tiers/zk-inference.js';
import type { EvaluationInput, GovernedAction, PentagonVerdict, RuleFinding } from './types.js';
import { finding, toViolation } from './violation.js';

let emptyPolicy: LoadedPolicy | undefined;
/** With no tenant policy the tiers still run on an empty one (so the verdict explains itself), then NO_POLICY denies. */
function noPolicy(): LoadedPolicy {
  emptyPolicy ??= loadPolicy('version: 1\nid: no-policy\n', 'built-in empty policy');
  return emptyPolicy;
}

function inputFindings(action: GovernedAction, safeArguments: JsonSafe): RuleFinding[] {
  const out: RuleFinding[] = [];
  const bad = (message: string, fix: string) =>
    out.push(finding('INVARIANT.EVALUATION_FAILED', message, fix, 'pentagon/input'));
  if (!Number.isFinite(action.spendAmount) || action.spendAmount < 0) {
    bad(
      `spend_amount must be a finite number >= 0, got ${action.spendAmount}`,
      'send spend_amount as a number >= 0',
    );
  }
  if (!Number.isSafeInteger(action.callDepth) || action.callDepth < 0) {
    bad(`call_depth must be an integer >= 0, got ${action.callDepth}`, 'send call_depth as an integer >= 0');
  }
  const change = safeArguments.change;
  if (change !== undefined) bad(`arguments are not plain JSON: ${change}`, 'send arguments as plain JSON');
  return out;
}

function reasonFor(
  verdict: Pick<PentagonVerdict, 'status' | 'violations'>,
  holdMs: number | undefined,
): string {
  const first = verdict.violations[0]?.message ?? '';
  const more = verdict.violations.length > 1 ? ` (and ${verdict.violations.length - 1} more)` : '';
  switch (verdict.status) {
    case 'ALLOW':
      return 'approved: every vertex of the pentagon passed';
    case 'DENY':
      return oneLine(`denied: ${first}${more}`, 2048);
    case 'REQUIRE_HUMAN':
      return oneLine(`waiting for a human: ${first}${more}`, 2048);
    default:
      return oneLine(`held for veto for ${holdMs ?? 0} ms: ${first}${more}`, 2048);
  }
}

function evaluateUnsafe(input: EvaluationInput): PentagonVerdict {
  const { agent, ledger, history, trust, nowMs } = input;
  const policy = input.policy ?? noPolicy();
  // What the call spends: the declared spend_amount, raised to a spend argument the policy names.
  const spent = spendFromArguments(policy, input.action);
  const action =
    spent.spendAmount === input.action.spendAmount
      ? input.action
      : { ...input.action, spendAmount: spent.spendAmount };
  // The arguments made plain JSON once: the input check, the fingerprints and the commitment share it.
  const safeArguments = jsonSafe(action.arguments);
  const prints =
    input.prints ??
    fingerprintsOfSafe(fingerprintScope(agent, action.lobeName), action.toolName, safeArguments.value);
  const preliminary: RuleFinding[] = inputFindings(action, safeArguments);
  if (!input.policy) {
    preliminary.push(
      finding(
        'INVARIANT.NO_POLICY',
        `tenant ${agent.tenantId} has no policy loaded; every call is refused`,
        'ask an operator to load a policy for this tenant (see cloud/policies/example.yaml)',
        'pentagon/policy',
      ),
    );
  }
  if (action.lobeName !== agent.lobeName) {
    preliminary.push(
      finding(
        'INVARIANT.LOBE_MISMATCH',
        `the call names lobe "${oneLine(action.lobeName, 128)}" but agent ${agent.agentId} is registered as lobe "${agent.lobeName}"`,
        `send lobe_name "${agent.lobeName}" (the one returned at registration)`,
        'pentagon/identity',
      ),
    );
  }
  const zkInference = zkInferenceTier(action, safeArguments.value);
  const jurisdiction = jurisdictionTier(policy, action);
  const firewall = proofFirewallTier(policy, action, trust, nowMs);
  const economic = economicTier(policy, agent, action, ledger, history, prints, nowMs);
  const tools = toolRuleFindings(policy, action);
  const all = [
    ...preliminary,
    ...jurisdiction.findings,
    ...firewall.findings,
    ...tools.findings,
    ...spent.findings,
    ...economic.findings,
  ];
  const arbitration = arbitrate(all, tools.holdMs);
  const status = arbitration.status;
  const reserveAmount = status === 'DENY' ? 0 : action.spendAmount;
  economic.tier.budget.reserveAmount = reserveAmount;
  const simulation = simulationTier(
    action,
    ledger,
    status,
    economic.remaining,
    economic.tier.budget.limit,
    firewall.tier.protectedResources.length,
    arbitration.tier.holdMs,
  );
  const tiers: VerdictTiers = {
    tier1: { zkInference, jurisdiction: jurisdiction.tier },
    tier2: { proofFirewall: firewall.tier, arbitration: arbitration.tier },
    tier3: { economic: economic.tier, simulation },
  };
  const violations = arbitration.deciding.map(toViolation);
  const remediation = [...new Set(arbitration.deciding.map((f) => oneLine(f.remediation, 2048)))];
  return {
    approved: status === 'ALLOW',
    status,
    reason: reasonFor({ status, violations }, arbitration.tier.holdMs),
    tiers,
    violations,
    remediation,
    reserveAmount,
    fingerprint: prints.fingerprint,
    nearFingerprint: prints.nearFingerprint,
    policyDigest: input.policy?.digest ?? '',
  };
}

const EMPTY_DIGEST = sha256HexOfText('');

/** The verdict when evaluation itself failed: DENY with every tier marked failed. */
function failedVerdict(input: EvaluationInput, err: unknown): PentagonVerdict {
  const message = oneLine(`evaluation failed: ${err instanceof Error ? err.message : String(err)}`, 1024);
  let prints = { fingerprint: EMPTY_DIGEST, nearFingerprint: EMPTY_DIGEST };
  try {
    prints = callFingerprints(
      fingerprintScope(input.agent, String(input.action?.lobeName)),
      String(input.action?.toolName),
      input.action?.arguments,
    );
  } catch {
    // Keep the empty digests: the call is refused either way.
  }
  const zero = {
    limit: 0,
    reservePercent: 0,
    windowMs: 0,
    spentInWindow: 0,
    reservedInWindow: 0,
    remaining: 0,
    requested: 0,
    reserveAmount: 0,
  };
  return {
    approved: false,
    status: 'DENY',
    reason: `denied: INVARIANT.EVALUATION_FAILED: ${message}`,
    tiers: {
      tier1: {
        zkInference: {
          passed: false,
          scheme: 'sha256-commitment',
          zeroKnowledge: false,
          commitment: EMPTY_DIGEST,
          modelId: 'unspecified',
          promptDigest: EMPTY_DIGEST,
          argumentsDigest: EMPTY_DIGEST,
          note: ZK_INFERENCE_NOTE,
        },
        jurisdiction: { passed: false, rulesApplied: [] },
      },
      tier2: {
        proofFirewall: {
          passed: false,
          injection: { flagged: false, score: 0, threshold: 0, fieldsScanned: 0, findings: [] },
          provenance: { requiredFor: [], verified: [], failures: [] },
          protectedResources: [],
        },
        arbitration: {
          status: 'DENY',
          combining: 'deny-overrides',
          effects: [{ source: 'pentagon/evaluation', effect: 'deny', code: 'INVARIANT.EVALUATION_FAILED' }],
          decidedBy: 'pentagon/evaluation (INVARIANT.EVALUATION_FAILED)',
        },
      },
      tier3: {
        economic: {
          passed: false,
          budget: zero,
          metabolic: {
            ...prints,
            identicalInWindow: 0,
            nearIdenticalInWindow: 0,
            callDepth: 0,
            deniedVariantsInWindow: 0,
          },
        },
        simulation: {
          wouldExecute: false,
          projected: { spentAfter: 0, remainingAfter: 0, utilisationPercent: 0 },
          effects: ['nothing runs'],
        },
      },
    },
    violations: [
      {
        code: 'INVARIANT.EVALUATION_FAILED',
        vertex: 'INVARIANT',
        message: `INVARIANT.EVALUATION_FAILED: ${message}`,
      },
    ],
    remediation: ['send the call again as plain JSON matching the ToolCall schema'],
    reserveAmount: 0,
    ...prints,
    policyDigest: input.policy?.digest ?? '',
  };
}

export function evaluateAction(input: EvaluationInput): PentagonVerdict {
  try {
    return evaluateUnsafe(input);
  } catch (err) {
    return failedVerdict(input, err);
  }
}
