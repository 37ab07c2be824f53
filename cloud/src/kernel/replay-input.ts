/**
 * What a kernel decision depends on, stored with it (decision record `verdict.kernel.input`) so that replay
 * re-decides from exactly this: the action as sent, the agent, the ledger and metabolic history as read,
 * the clock, the kernel's rule settings and the digest of the policy version. Plain JSON by construction.
 */
import type { ProposedAction } from '@pentagate/protocol';
import type { AgentIdentity, CallRecord, GovernedAction, LedgerState } from '../pentagon/index.js';
import type { LedgerTotals } from '../store/records.js';
import type { ReservationRequest } from '../store/store.js';
import type { KernelRuleSettings } from './kernel-settings.js';

export interface ReplayInput {
  v: 1;
  proposalId: string;
  /** The kernel form of the request (for an agent-route call: `tool:invoke` with its confidence). */
  action: ProposedAction;
  /**
   * An agent-route call (`/agentgate/propose`, `/selfcorrect`) as the pentagon governs it: tool name,
   * arguments, prompt, spend, the registered model and version, the jurisdiction bound to the caller.
   * Absent for a kernel proposal, whose governed form is derived from `action`.
   */
  governed?: GovernedAction;
  agent: AgentIdentity;
  ledger: LedgerState;
  history: CallRecord[];
  nowMs: number;
  settings: KernelRuleSettings;
  /** The policy decided under (NO_POLICY's digest when none was loaded). */
  policyDigest: string;
}

export type { JurisdictionClaims } from '../pentagon/index.js';

/** Set when the budget reservation lost a race in the store: replay applies the same refusal. */
export interface LostRace {
  reservation: ReservationRequest;
  ledger: LedgerTotals;
}

/** The kernel's part of a decision record's `verdict` JSON. */
export interface KernelDecisionRecord {
  input: ReplayInput;
  /**
   * The route and signed subject name, when they differ from the kernel's own. The request as sent is not
   * kept here: what every statement about the decision signs is its digest, the decision row's
   * subjectDigest, and replay decides from `input`.
   */
  origin?: { route: string; subjectName: string };
  lostRace?: LostRace;
  reservationId: string | null;
  /** The policy cited in the signed statement. */
  policy: { id: string; digest: string };
}
