/**
 * What a kernel decision depends on, stored with it (decision record `verdict.kernel.input`) so that replay
 * re-decides from exactly this: the action as sent, the agent, the ledger and metabolic history as read,
 * the clock, the kernel's rule settings and the digest of the policy version. Plain JSON by construction.
 */
import type { ProposedAction } from '@pentagate/protocol';
import type { AgentIdentity, CallRecord, LedgerState } from '../pentagon/index.js';
import type { LedgerTotals } from '../store/records.js';
import type { ReservationRequest } from '../store/store.js';
import type { KernelRuleSettings } from './kernel-settings.js';

export interface ReplayInput {
  v: 1;
  proposalId: string;
  action: ProposedAction;
  agent: AgentIdentity;
  ledger: LedgerState;
  history: CallRecord[];
  nowMs: number;
  settings: KernelRuleSettings;
  /** The policy decided under (NO_POLICY's digest when none was loaded). */
  policyDigest: string;
}

/** Set when the budget reservation lost a race in the store: replay applies the same refusal. */
export interface LostRace {
  reservation: ReservationRequest;
  ledger: LedgerTotals;
}

/** The kernel's part of a decision record's `verdict` JSON. */
export interface KernelDecisionRecord {
  input: ReplayInput;
  lostRace?: LostRace;
  reservationId: string | null;
  /** The policy cited in the signed statement. */
  policy: { id: string; digest: string };
}
