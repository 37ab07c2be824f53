/**
 * The kernel's storage, composed on the platform store (cloud/src/store/store.ts) rather than inside it:
 * one row per proposal holding its lifecycle state, and the one primitive every transition uses —
 * `settle` — which checks the current state, moves it, settles the budget reservation and appends the
 * audit entry in ONE transaction, so exactly-once execution, veto-versus-execute and approve-versus-expire
 * races are decided by the database across processes (ARCHITECTURE.md §7).
 *
 * The decision itself (signed envelope, reservation, `decision` audit entry) is written by the platform's
 * `commitDecision`, and the proposal row with it, in the same transaction (`proposalRow`, kernel-rows.ts):
 * a proposal and its decision exist together or not at all, and the row holds the final decision.
 */
import type { AuthorizationStatus } from '@pentagate/protocol';
import type { AuditRecord, PolicyRecord, ReservationState } from './records.js';
import type { AuditEntryBuilder } from './store.js';

/**
 * `open`: as decided (ALLOW waiting to execute, REQUIRE_HUMAN waiting for an operator, HELD_FOR_VETO in or
 * past its hold). `approved`: an operator approved a REQUIRE_HUMAN. Final: `executed`, `denied` (by an
 * operator, or DENY at authorize), `vetoed`, `expired`. `superseded` is allowed by the tables' CHECK and read
 * by execute and the agent verdict, but nothing writes it: a request that loses an idempotency race leaves no
 * row (its decision rolls back whole, authorize.ts) and answers with the first request's decision.
 */
export const PROPOSAL_STATES = [
  'open',
  'approved',
  'executed',
  'denied',
  'vetoed',
  'expired',
  'superseded',
] as const;
export type ProposalState = (typeof PROPOSAL_STATES)[number];

export interface ProposalRecord {
  tenantId: string;
  id: string;
  agentId: string;
  status: AuthorizationStatus;
  state: ProposalState;
  actionType: string;
  /** SHA-256(JCS(ProposedAction as sent)); an approval must name it. */
  actionDigest: string;
  idempotencyKey: string | null;
  reservationId: string | null;
  createdAtMs: number;
  expiresAtMs: number;
  holdUntilMs: number | null;
  updatedAtMs: number;
  /** Who made the last transition (API key id), if anyone. */
  settledBy: string | null;
  /** The API key that made the proposal (null for proposals stored before it was recorded). */
  proposedBy: string | null;
}

export interface Settlement {
  tenantId: string;
  proposalId: string;
  /** States the transition may start from; any other state refuses it. */
  from: readonly ProposalState[];
  to: ProposalState;
  nowMs: number;
  actor: string | null;
  /** The reservation to commit or release with the transition (skipped if not still 'reserved'). */
  reservation?: { id: string; state: Exclude<ReservationState, 'reserved'> };
  audit: AuditEntryBuilder;
}

export type SettleResult =
  | { settled: true; audit: AuditRecord }
  | { settled: false; current: ProposalState | undefined };

/**
 * The approvals queue's two lanes: `held` (HELD_FOR_VETO, by hold end: they run by themselves when it ends)
 * listed before `waiting` (REQUIRE_HUMAN, oldest first).
 */
export type QueueLane = 'held' | 'waiting';

/** A place in a lane: its sort value (hold end or creation time) and the proposal id that breaks ties. */
export interface QueuePosition {
  sortMs: number;
  id: string;
}

export interface AuditEventQuery {
  tenantId: string;
  type?: string;
  /** Matches the entry's actor or its data.agentId. */
  agentId?: string;
  /** Matches data.proposalId or data.decisionId. */
  proposalId?: string;
  /** ISO instants, inclusive `from`, exclusive `to`. */
  fromIso?: string;
  toIso?: string;
  /** Only entries with a larger index. */
  afterIndex?: number;
  /** Only entries with a smaller index. */
  beforeIndex?: number;
  /** Newest first (descending index) instead of log order. */
  newestFirst?: boolean;
  limit: number;
}

export interface KernelStore {
  getProposal(tenantId: string, id: string): Promise<ProposalRecord | undefined>;
  findByIdempotencyKey(tenantId: string, key: string): Promise<ProposalRecord | undefined>;
  settle(settlement: Settlement): Promise<SettleResult>;
  /**
   * Open proposals of one lane of the tenant's approvals queue, in the lane's order, after `after` (approvals-queue-query.ts).
   */
  listQueue(
    tenantId: string,
    lane: QueueLane,
    after: QueuePosition | undefined,
    limit: number,
  ): Promise<ProposalRecord[]>;
  /** How many open REQUIRE_HUMAN and HELD_FOR_VETO proposals the API key made, counted up to `atMost`. */
  countOpenByKey(tenantId: string, keyId: string, atMost: number): Promise<number>;
  /** Open or approved proposals of any tenant whose expiry passed. */
  dueForExpiry(nowMs: number, limit: number): Promise<ProposalRecord[]>;
  /** A stored policy version by digest, if one of `tenantIds` ever activated it. */
  policyByDigest(tenantIds: readonly string[], digest: string): Promise<PolicyRecord | undefined>;
  /** The tenant's audit entries matching the query, in index order. */
  auditEvents(query: AuditEventQuery): Promise<AuditRecord[]>;
}
