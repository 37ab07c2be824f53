/**
 * Every violation code a tool-call verdict can carry, with its vertex and meaning. Codes are stable
 * (`VERTEX.NAME`, ARCHITECTURE.md §3); a message adds the readable tail. Served by `GET /api/v1/agentgate/schema`.
 *
 * Jurisdiction rules sit under INVARIANT: they are tenant policy that an agent may not route around.
 */
import type { Vertex } from '../schemas/kernel.js';

export type VertexName = Vertex;

export interface ViolationCodeInfo {
  readonly vertex: VertexName;
  /** What the code means, in one sentence. */
  readonly meaning: string;
  /** Whether the code denies (DENY) or only asks a human (REQUIRE_HUMAN / HELD_FOR_VETO). */
  readonly effect: 'deny' | 'require-human' | 'hold';
}

export const VIOLATION_CODES = {
  'INVARIANT.NO_POLICY': {
    vertex: 'INVARIANT',
    meaning: 'the tenant has no policy loaded, so every call is refused (fail closed)',
    effect: 'deny',
  },
  'INVARIANT.LOBE_MISMATCH': {
    vertex: 'INVARIANT',
    meaning: 'the call names a lobe other than the one registered for the calling agent',
    effect: 'deny',
  },
  'INVARIANT.TOOL_DENIED': { vertex: 'INVARIANT', meaning: 'the policy denies this tool', effect: 'deny' },
  'INVARIANT.PROTECTED_RESOURCE': {
    vertex: 'INVARIANT',
    meaning: 'an argument names a resource the policy protects (policies, core logic, secrets)',
    effect: 'deny',
  },
  'INVARIANT.JURISDICTION_REGION': {
    vertex: 'INVARIANT',
    meaning: 'the call comes from, or names, a region a jurisdiction rule does not allow for this tool',
    effect: 'deny',
  },
  'INVARIANT.JURISDICTION_DEPARTMENT': {
    vertex: 'INVARIANT',
    meaning: 'the calling department is not allowed to use this tool',
    effect: 'deny',
  },
  'INVARIANT.JURISDICTION_CLAIM': {
    vertex: 'INVARIANT',
    meaning:
      'the call claims a region or department other than the one the tenant administrator bound to its API key',
    effect: 'deny',
  },
  'INVARIANT.DATA_RESIDENCY': {
    vertex: 'INVARIANT',
    meaning: 'the call would move data to a location a data-residency rule forbids',
    effect: 'deny',
  },
  'INVARIANT.EVALUATION_FAILED': {
    vertex: 'INVARIANT',
    meaning: 'the evaluation itself failed on this input; the call is refused (fail closed)',
    effect: 'deny',
  },
  'ECONOMY.NO_BUDGET': {
    vertex: 'ECONOMY',
    meaning: 'the call spends money but no budget in the policy covers its lobe or agent',
    effect: 'deny',
  },
  'ECONOMY.BUDGET_EXCEEDED': {
    vertex: 'ECONOMY',
    meaning: 'spend_amount exceeds what remains of the budget in the current window',
    effect: 'deny',
  },
  'ECONOMY.SPEND_ARGUMENT_INVALID': {
    vertex: 'ECONOMY',
    meaning:
      'the policy names an argument of this tool as what it spends, and that argument is missing or not a number >= 0',
    effect: 'deny',
  },
  'ECONOMY.LOOP_IDENTICAL': {
    vertex: 'ECONOMY',
    meaning: 'the same call (same tool and arguments) was proposed too often within the repeat window',
    effect: 'deny',
  },
  'ECONOMY.LOOP_NEAR_IDENTICAL': {
    vertex: 'ECONOMY',
    meaning: 'calls differing only in numbers, case or whitespace were proposed too often within the window',
    effect: 'deny',
  },
  'ECONOMY.CALL_DEPTH': {
    vertex: 'ECONOMY',
    meaning: 'call_depth exceeds the policy maximum (runaway agent-to-agent recursion)',
    effect: 'deny',
  },
  'ECONOMY.POLICY_PROBING': {
    vertex: 'ECONOMY',
    meaning: 'the lobe keeps mutating a denied call of this tool, as if searching for a gap in the policy',
    effect: 'deny',
  },
  'RISK.PROMPT_INJECTION': {
    vertex: 'RISK',
    meaning: 'the trigger prompt or a string argument scores at or above the injection threshold',
    effect: 'deny',
  },
  'RISK.DESTRUCTIVE_COMMAND': {
    vertex: 'RISK',
    meaning:
      'a string argument, as a shell, an interpreter or (for a SQL tool) a database runs it, destroys a file system or a table',
    effect: 'deny',
  },
  'PROVENANCE.CUSTODY_MISSING': {
    vertex: 'PROVENANCE',
    meaning: 'a data argument the policy requires custody for has no matching custody attestation',
    effect: 'deny',
  },
  'PROVENANCE.CUSTODY_UNVERIFIED': {
    vertex: 'PROVENANCE',
    meaning: 'a custody attestation does not verify against the trusted custody keys',
    effect: 'deny',
  },
  'CONSENT.HUMAN_REQUIRED': {
    vertex: 'CONSENT',
    meaning: 'the tool is consent-class: an operator must approve this call (REQUIRE_HUMAN)',
    effect: 'require-human',
  },
  'CONSENT.HELD_FOR_VETO': {
    vertex: 'CONSENT',
    meaning: 'the tool is held: it may run after the hold window unless an operator vetoes (HELD_FOR_VETO)',
    effect: 'hold',
  },
} as const satisfies Record<string, ViolationCodeInfo>;

export type ViolationCode = keyof typeof VIOLATION_CODES;

/**
 * Codes the agent routes add when a call is in the approvals queue: not rules of the pentagon but the state
 * of the human decision a rule asked for.
 */
export const APPROVAL_VIOLATION_CODES = {
  'CONSENT.APPROVAL_PENDING': {
    vertex: 'CONSENT',
    meaning:
      'the call waits in the approvals queue (id in the message); propose the same tool_call.id again once an operator approved it or its hold passed',
    effect: 'require-human',
  },
  'CONSENT.APPROVAL_REFUSED': {
    vertex: 'CONSENT',
    meaning: 'an operator denied or vetoed this call, or its approval expired; it will not be approved',
    effect: 'deny',
  },
} as const satisfies Record<string, ViolationCodeInfo>;
