/**
 * Human decisions on pending proposals (ARCHITECTURE.md §3 CONSENT). `approve` lets a REQUIRE_HUMAN execute;
 * `deny` refuses a REQUIRE_HUMAN or HELD_FOR_VETO; `veto` stops a HELD_FOR_VETO (until it executes). Each
 * is bound to the exact action digest the operator reviewed — a different digest is refused — and is
 * signed (a decision statement with outcome APPROVED, DENY or VETOED) into its audit entry. A pending
 * item past its expiry is expired instead (time-out counts as denied).
 */
import { ownEnvelopeDigest } from '../pentagon/digest.js';
import type { DsseEnvelope, ProposedAction } from '@pentagate/protocol';
import type { Caller } from '../app/auth.js';
import { ApiError } from '../app/errors.js';
import { jsonBytes } from '../app/json-bytes.js';
import { AuditLog } from '../audit/audit-log.js';
import { decisionStatement, signDecision } from '../decisions/decision-statement.js';
import type { ProposalRecord, ProposalState } from '../store/kernel-store.js';
import type { DecisionBody } from './decide.js';
import { type QueueCursor, cursorAfter, parseCursor } from './approvals-cursor.js';
import { expireProposal } from './expiry.js';
import type { KernelContext } from './kernel-context.js';
import { findKernelDecision, proposalNotFound, requireKernelDecision } from './kernel-decision.js';

export type ApprovalVerb = 'approve' | 'deny' | 'veto';
export const APPROVAL_VERBS: readonly ApprovalVerb[] = ['approve', 'deny', 'veto'];

export interface ApprovalItem {
  id: string;
  status: 'REQUIRE_HUMAN' | 'HELD_FOR_VETO';
  actionType: string;
  agentId: string;
  /** What an approval must name: SHA-256(JCS(action)). */
  actionDigest: string;
  action: ProposedAction;
  createdAt: string;
  expiresAt: string;
  holdUntil?: string;
  violations: DecisionBody['violations'];
  remediation?: string;
  /**
   * The API key that made the proposal, and the agent it is bound to (null: unbound, so the agent named is
   * the caller's own claim). Absent for proposals stored before the key was recorded.
   */
  proposedBy?: { keyId: string; boundAgent: string | null };
}

export interface ApprovalOutcome {
  id: string;
  state: ProposalState;
  auditIndex: number;
  at: string;
}

const RULES: Record<
  ApprovalVerb,
  { statuses: string[]; to: ProposalState; type: string; outcome: 'APPROVED' | 'DENY' | 'VETOED' }
> = {
  approve: { statuses: ['REQUIRE_HUMAN'], to: 'approved', type: 'approval', outcome: 'APPROVED' },
  deny: { statuses: ['REQUIRE_HUMAN', 'HELD_FOR_VETO'], to: 'denied', type: 'approval', outcome: 'DENY' },
  veto: { statuses: ['HELD_FOR_VETO'], to: 'vetoed', type: 'veto', outcome: 'VETOED' },
};

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * Rows of the queue from `from` on, at most `want`: the held lane first (it runs by itself when a hold ends), then
 * the waiting lane, each read through its index in its order.
 */
async function queueRows(
  k: KernelContext,
  tenantId: string,
  from: QueueCursor | undefined,
  want: number,
): Promise<ProposalRecord[]> {
  const rows = from?.lane === 'waiting' ? [] : await k.store.listQueue(tenantId, 'held', from?.after, want);
  if (rows.length >= want) return rows;
  const after = from?.lane === 'waiting' ? from.after : undefined;
  return [...rows, ...(await k.store.listQueue(tenantId, 'waiting', after, want - rows.length))];
}

/**
 * One page of the tenant's pending items: HELD_FOR_VETO first, soonest hold end first, then REQUIRE_HUMAN oldest
 * first; at most `approvalsListLimit` and `approvalsListMaxBytes` of actions; due ones are expired on the way.
 * `more` says that further items wait beyond the page, and `nextCursor` where they start. A held proposal
 * executes when its hold ends unless vetoed: listed oldest first and capped with no way on, a flood of
 * REQUIRE_HUMAN proposals hid one until it ran (outside review F4), so held ones lead every first page.
 */
export async function listApprovals(
  k: KernelContext,
  tenantId: string,
  cursor?: string,
): Promise<{ items: ApprovalItem[]; more: boolean; nextCursor?: string }> {
  const nowMs = k.nowMs();
  const limit = k.settings.approvalsListLimit;
  const open = await queueRows(
    k,
    tenantId,
    cursor === undefined ? undefined : parseCursor(cursor),
    limit + 1,
  );
  const items: ApprovalItem[] = [];
  let listedBytes = 0;
  // the last row this page dealt with (listed, expired or gone): the next page starts after it
  let done: ProposalRecord | undefined;
  // one read for the list: an operator judges an agent name by whether a key bound to it made the proposal
  const keys = open.some((p) => p.proposedBy !== null) ? await k.cloud.store.listApiKeys(tenantId) : [];
  const boundAgentOf = new Map(keys.map((key) => [key.id, key.agentName]));
  for (const p of open.slice(0, limit)) {
    if (nowMs > p.expiresAtMs) {
      await expireProposal(k, p, nowMs);
      done = p;
      continue;
    }
    const found = await findKernelDecision(k, tenantId, p.id);
    if (!found) {
      done = p;
      continue;
    }
    const b = found.body;
    listedBytes += jsonBytes(found.kernel.input.action);
    if (items.length > 0 && listedBytes > k.settings.approvalsListMaxBytes) {
      return { items, more: true, nextCursor: cursorAfter(done!) };
    }
    items.push({
      id: p.id,
      status: p.status as ApprovalItem['status'],
      actionType: p.actionType,
      agentId: p.agentId,
      actionDigest: p.actionDigest,
      action: found.kernel.input.action,
      createdAt: iso(p.createdAtMs),
      expiresAt: b.expiresAt,
      ...(b.holdUntil ? { holdUntil: b.holdUntil } : {}),
      violations: b.violations,
      ...(b.remediation ? { remediation: b.remediation } : {}),
      ...(p.proposedBy !== null
        ? { proposedBy: { keyId: p.proposedBy, boundAgent: boundAgentOf.get(p.proposedBy) ?? null } }
        : {}),
    });
    done = p;
  }
  const more = open.length > limit;
  return more ? { items, more, nextCursor: cursorAfter(open[limit - 1]!) } : { items, more };
}

function conflict(message: string, p: ProposalRecord | undefined, current?: ProposalState): ApiError {
  return new ApiError('APPROVAL_CONFLICT', message, { state: current ?? p?.state ?? null });
}

export async function decideApproval(
  k: KernelContext,
  caller: Caller,
  proposalId: string,
  verb: ApprovalVerb,
  body: { actionDigest: string; comment?: string },
): Promise<ApprovalOutcome> {
  const tenantId = caller.tenantId;
  const nowMs = k.nowMs();
  const p = await k.store.getProposal(tenantId, proposalId);
  if (!p) throw proposalNotFound(proposalId);
  const rule = RULES[verb];
  if (!rule.statuses.includes(p.status)) {
    throw conflict(
      `${verb}: expected a ${rule.statuses.join(' or ')} proposal, got one decided ${p.status}`,
      p,
    );
  }
  // CONSENT is a second party's word: the key that proposed cannot be the one that approves. (Denying or
  // vetoing its own proposal only withdraws it, so those stay open to it.)
  if (verb === 'approve' && p.proposedBy !== null && p.proposedBy === caller.keyId) {
    throw new ApiError(
      'SELF_APPROVAL_FORBIDDEN',
      `approve: proposal ${proposalId} was made with this API key (${caller.keyId}); an approval must come from another key, an operator's`,
    );
  }
  if (body.actionDigest !== p.actionDigest) {
    throw conflict(
      `actionDigest: this ${verb} is bound to the action reviewed, and the digest sent is not that action's; review the pending item again`,
      p,
    );
  }
  if (nowMs > p.expiresAtMs) {
    await expireProposal(k, p, nowMs);
    throw conflict(
      `${verb}: the proposal expired at ${iso(p.expiresAtMs)} (an expired request counts as denied)`,
      p,
      'expired',
    );
  }
  const found = await requireKernelDecision(k, tenantId, proposalId);
  const envelope = found.record.envelope as unknown as DsseEnvelope;
  const input = found.kernel.input;
  const releases = rule.to !== 'approved' && p.reservationId !== null;
  const settled = await k.store.settle({
    tenantId,
    proposalId,
    from: ['open'],
    to: rule.to,
    nowMs,
    actor: caller.keyId,
    ...(releases ? { reservation: { id: p.reservationId!, state: 'released' as const } } : {}),
    audit: (index) => {
      const statement = decisionStatement({
        subjectName: found.kernel.origin?.subjectName ?? `kernel:${input.action.type}`,
        subjectDigest: found.record.subjectDigest,
        decisionId: proposalId,
        outcome: rule.outcome,
        tenantId,
        agentId: p.agentId,
        policy: found.kernel.policy,
        tiers: {},
        reservedBudget: rule.to === 'approved' ? found.record.reservedAmount : 0,
        issuedAtMs: nowMs,
        expiresAtMs: p.expiresAtMs,
        auditOrigin: k.cloud.keys.origin,
        auditIndex: index,
      });
      const signed = signDecision(statement, k.cloud.keys.proof);
      return AuditLog.builder(
        {
          type: rule.type,
          tenantId,
          actor: caller.keyId,
          subjectDigest: ownEnvelopeDigest(signed),
          data: {
            action: verb,
            proposalId,
            agentId: p.agentId,
            actionDigest: p.actionDigest,
            decisionEnvelopeDigest: ownEnvelopeDigest(envelope),
            ...(body.comment ? { comment: body.comment } : {}),
            ...(releases ? { releasedReservation: p.reservationId } : {}),
            envelope: signed,
          },
        },
        nowMs,
      )(index);
    },
  });
  if (!settled.settled) {
    throw conflict(
      `${verb}: the proposal is no longer pending (state ${settled.current ?? 'unknown'})`,
      p,
      settled.current,
    );
  }
  return { id: proposalId, state: rule.to, auditIndex: settled.audit.index, at: iso(nowMs) };
}
