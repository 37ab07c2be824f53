/**
 * The input and output of a pentagon evaluation. The input is everything the decision depends on —
 * nothing is read from clocks, stores or globals — so the kernel can replay a stored input and get the
 * same verdict.
 */
import type { TrustStore } from '@pentagate/crypto';
import type { AuthorizationStatus, VerdictTiers, Violation } from '@pentagate/protocol';
import type { LoadedPolicy } from '../policy/loaded-policy.js';
import type { CallFingerprints } from './fingerprint.js';

/** One earlier call of the same agent, as the platform's metabolic ledger stores it. */
export interface CallRecord {
  fingerprint: string;
  nearFingerprint: string;
  atMs: number;
  approved: boolean;
  toolName: string;
  /** Violation codes of that call's verdict. */
  violations: string[];
}

export interface AgentIdentity {
  agentId: string;
  /**
   * The agent's account (the store's AgentRecord.accountId): the budget ledger and call history are kept
   * under it, and a call's fingerprints are scoped to it (fingerprint.ts), so every version of an agent
   * shares them. Absent in decisions recorded before accounts existed, whose fingerprints are per lobe.
   */
  accountId?: string;
  lobeName: string;
  domain: string;
  tenantId: string;
}

/** Budget state in the current window, read atomically by the store before evaluation. */
export interface LedgerState {
  /** The gross budget for the window (the budget rule's `amount`, see `budgetFor`). */
  budgetLimit: number;
  spentInWindow: number;
  reservedInWindow: number;
  windowMs: number;
}

/**
 * A side effect to govern, independent of the route it came from: a tool call from
 * `/agentgate/propose`, a self-correct action, or (for the kernel) one of the nine ActionTypes mapped
 * with `toolName = actionType` and `arguments = payload`.
 */
export interface GovernedAction {
  lobeName: string;
  toolName: string;
  arguments: Record<string, unknown>;
  triggerPrompt?: string;
  modelId?: string;
  /** agent_version of the registered agent; committed to with the model id in tier1. */
  agentVersion?: string;
  spendAmount: number;
  /** Bound to the caller's API key by the tenant's administrator (never taken from the request). */
  region?: string;
  department?: string;
  /** What the request claimed; jurisdiction refuses a claim that differs from the binding. */
  claims?: JurisdictionClaims;
  callDepth: number;
  dataProvenance: readonly unknown[];
  context?: Record<string, unknown>;
}

/** A region and department: claimed by a request, or bound to its API key. */
export interface JurisdictionClaims {
  region?: string;
  department?: string;
}

export interface EvaluationInput {
  action: GovernedAction;
  agent: AgentIdentity;
  policy: LoadedPolicy | undefined;
  ledger: LedgerState;
  history: readonly CallRecord[];
  trust: TrustStore;
  nowMs: number;
  /**
   * The call's fingerprints (fingerprint.ts `callFingerprints` of this action), when the caller already took
   * them: the kernel reads the metabolic history by them. Computed here otherwise.
   */
  prints?: CallFingerprints | undefined;
}

export interface PentagonVerdict {
  approved: boolean;
  status: AuthorizationStatus;
  reason: string;
  tiers: VerdictTiers;
  violations: Violation[];
  /** One concrete step per failed rule. */
  remediation: string[];
  /** What the store must reserve against the budget (spend_amount unless DENY). */
  reserveAmount: number;
  fingerprint: string;
  nearFingerprint: string;
  /** Digest of the policy decided under ("" when none was loaded). */
  policyDigest: string;
}

/** A rule outcome on its way to arbitration: code, readable message, and what would fix it. */
export interface RuleFinding {
  code: string;
  message: string;
  remediation: string;
  /** `tier/rule-id`, recorded in arbitration's effects. */
  source: string;
}
