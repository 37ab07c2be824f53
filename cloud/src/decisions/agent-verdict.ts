/**
 * What an agent-route call gets back, from the kernel's decision and the proposal's state:
 * - ALLOW: approved, with the governance token of the signed decision.
 * - DENY: refused, with the violations.
 * - REQUIRE_HUMAN / HELD_FOR_VETO: the call waits in the approvals queue (`GET /api/v1/approvals`), and the
 *   answer names it (CONSENT.APPROVAL_PENDING). Asked again (same tool_call.id) after an operator
 *   approved, or after the hold passed unvetoed, the call is released: the proposal settles to executed,
 *   its reservation is committed, and a newly signed statement (outcome APPROVED, or ALLOW for an elapsed
 *   hold) in an `execution` audit entry gives the token. Denied, vetoed or expired: CONSENT.APPROVAL_REFUSED.
 */
import { ownEnvelopeDigest } from '../pentagon/digest.js';
import {
  type AuthorizationDecision,
  type DecisionOutcome,
  type DsseEnvelope,
  newId,
  type VerdictTiers,
  type Violation,
} from '@pentagate/protocol';
import type { Caller } from '../app/auth.js';
import { AuditLog } from '../audit/audit-log.js';
import { type AuthorizeRequest, authorize } from '../kernel/authorize.js';
import { expireProposal } from '../kernel/expiry.js';
import type { KernelContext } from '../kernel/kernel-context.js';
import { requireKernelDecision } from '../kernel/kernel-decision.js';
import { oneLine } from '../pentagon/one-line.js';
import type { ProposalRecord } from '../store/kernel-store.js';
import { decisionStatement, signDecision, signedTiersOf } from './decision-statement.js';
import { tokenOfFreshEnvelope } from './fresh-token.js';

export interface AgentVerdict {
  approved: boolean;
  governanceToken?: string;
  reason: string;
  tiers: VerdictTiers;
  violations: Violation[];
  /** One step per failed rule, joined with "; " ("" when approved). */
  remediation: string;
  decisionId: string;
  /** Set while the call waits in the approvals queue. */
  approvalId?: string;
}

function consent(code: string, message: string): Violation {
  return { code, vertex: 'CONSENT', message: oneLine(`${code}: ${message}`, 2048) };
}

export async function governAgentCall(
  k: KernelContext,
  caller: Caller,
  req: AuthorizeRequest,
): Promise<AgentVerdict> {
  const result = await authorize(k, caller, req);
  const d = result.decision;
  const base = {
    reason: result.reason,
    tiers: result.tiers,
    violations: d.violations,
    remediation: d.remediation ?? '',
    decisionId: d.proposalId,
  };
  if (d.status === 'ALLOW') {
    return {
      ...base,
      approved: true,
      governanceToken: tokenOfFreshEnvelope(result.envelope, k.cloud.keys.proof.keyid),
    };
  }
  if (d.status === 'DENY') return { ...base, approved: false };
  return waitingOrReleased(
    k,
    caller,
    d,
    base,
    (AGAIN[req.route] ?? AGAIN['agentgate.propose']!)(d.proposalId),
  );
}

/**
 * How the caller gets the call released once approved, per route. The self-correcting route has no id of
 * the caller's to send again (specification §2.5): the approval's id is the kernel proposal to execute.
 */
const AGAIN: Record<string, (approvalId: string) => string> = {
  'agentgate.propose': () => 'propose the same tool_call.id again',
  selfcorrect: (approvalId) =>
    `execute it with POST /api/v1/kernel/execute {"proposalId":"${approvalId}"} (the approval_id)`,
};

async function waitingOrReleased(
  k: KernelContext,
  caller: Caller,
  d: AuthorizationDecision,
  base: Omit<AgentVerdict, 'approved'>,
  again: string,
  attempt = 0,
): Promise<AgentVerdict> {
  const nowMs = k.nowMs();
  const p = await k.store.getProposal(caller.tenantId, d.proposalId);
  if (!p) throw new Error(`proposal ${d.proposalId} has a decision but no row`);
  const holdPassed =
    d.status === 'HELD_FOR_VETO' && d.holdUntil !== undefined && nowMs >= Date.parse(d.holdUntil);
  if (p.state === 'executed') {
    const token = await releaseToken(k, caller.tenantId, p.id);
    if (token) return released(base, d, token);
  }
  if ((p.state === 'open' || p.state === 'approved') && nowMs > p.expiresAtMs) {
    await expireProposal(k, p, nowMs);
    return refused(base, d, 'expired');
  }
  if (p.state === 'approved' || (p.state === 'open' && holdPassed)) {
    const token = await release(k, caller, p, p.state === 'approved' ? 'APPROVED' : 'ALLOW', nowMs);
    if (token) return released(base, d, token);
    // lost a race (a veto, an expiry or a concurrent release): read the new state once more
    if (attempt === 0) return waitingOrReleased(k, caller, d, base, again, 1);
  }
  if (p.state === 'open') return pending(base, d, again);
  return refused(base, d, p.state);
}

/** Approved after a human (or an elapsed hold): the tool may run; what asked for the human stays in the tiers. */
function released(
  base: Omit<AgentVerdict, 'approved'>,
  d: AuthorizationDecision,
  token: string,
): AgentVerdict {
  const reason =
    d.status === 'HELD_FOR_VETO'
      ? `approved: the hold passed at ${d.holdUntil} without a veto`
      : 'approved: an operator approved the call';
  return { ...base, approved: true, governanceToken: token, reason, violations: [], remediation: '' };
}

function pending(
  base: Omit<AgentVerdict, 'approved'>,
  d: AuthorizationDecision,
  again: string,
): AgentVerdict {
  const message =
    d.status === 'HELD_FOR_VETO'
      ? `held for veto as approval ${d.proposalId} until ${d.holdUntil}; ${again} after that unless an operator vetoes it`
      : `waiting for an operator in the approvals queue as approval ${d.proposalId} (until ${d.expiresAt}); ${again} once it is approved`;
  return {
    ...base,
    approved: false,
    approvalId: d.proposalId,
    violations: [...base.violations, consent('CONSENT.APPROVAL_PENDING', message)],
  };
}

function refused(
  base: Omit<AgentVerdict, 'approved'>,
  d: AuthorizationDecision,
  state: string,
): AgentVerdict {
  // executed without a release token: the approval was spent through POST /api/v1/kernel/execute (it is a
  // kernel proposal), so it ran once already; saying "denied" would invite the caller to run it again
  const executed = state === 'executed';
  const why = executed
    ? 'it was already executed (POST /api/v1/kernel/execute); it runs once'
    : state === 'vetoed'
      ? 'an operator vetoed it'
      : state === 'expired'
        ? `its approval expired at ${d.expiresAt}`
        : state === 'superseded'
          ? 'an earlier request with the same id took its place'
          : 'an operator denied it';
  const message = `approval ${d.proposalId} will not run: ${why}`;
  return {
    ...base,
    approved: false,
    reason: `${executed ? 'refused' : 'denied'}: ${message}`,
    violations: [...base.violations, consent('CONSENT.APPROVAL_REFUSED', message)],
    remediation: executed
      ? 'do not run the tool again: this approval was already executed'
      : 'propose a new call (a new tool_call.id) if it is still needed',
  };
}

/** The token signed when the proposal was released (its `execution` entry), if it was. */
async function releaseToken(
  k: KernelContext,
  tenantId: string,
  proposalId: string,
): Promise<string | undefined> {
  const [entry] = await k.store.auditEvents({ tenantId, type: 'execution', proposalId, limit: 1 });
  const envelope = entry?.entry.data.envelope as DsseEnvelope | undefined;
  return envelope ? tokenOfFreshEnvelope(envelope, k.cloud.keys.proof.keyid) : undefined;
}

/**
 * Settles an approved (or elapsed-hold) proposal to executed — committing its reservation — with an
 * `execution` entry that holds a newly signed statement for that audit position. Returns its token, or
 * undefined when the proposal was no longer in that state.
 */
async function release(
  k: KernelContext,
  caller: Caller,
  p: ProposalRecord,
  outcome: DecisionOutcome,
  nowMs: number,
): Promise<string | undefined> {
  const found = await requireKernelDecision(k, p.tenantId, p.id);
  const decisionEnvelope = found.record.envelope as unknown as DsseEnvelope;
  const origin = found.kernel.origin;
  const executionId = newId('exe', nowMs);
  let signed: DsseEnvelope | undefined;
  const settled = await k.store.settle({
    tenantId: p.tenantId,
    proposalId: p.id,
    from: [p.state],
    to: 'executed',
    nowMs,
    actor: caller.keyId,
    ...(p.reservationId ? { reservation: { id: p.reservationId, state: 'committed' as const } } : {}),
    audit: (index) => {
      const statement = decisionStatement({
        subjectName: origin?.subjectName ?? `kernel:${found.kernel.input.action.type}`,
        subjectDigest: found.record.subjectDigest,
        decisionId: p.id,
        outcome,
        tenantId: p.tenantId,
        agentId: p.agentId,
        policy: found.kernel.policy,
        tiers: signedTiersOf(decisionEnvelope) as unknown as Record<string, unknown>,
        reservedBudget: found.record.reservedAmount,
        issuedAtMs: nowMs,
        expiresAtMs: p.expiresAtMs,
        auditOrigin: k.cloud.keys.origin,
        auditIndex: index,
      });
      signed = signDecision(statement, k.cloud.keys.proof);
      return AuditLog.builder(
        {
          type: 'execution',
          tenantId: p.tenantId,
          actor: caller.keyId,
          subjectDigest: ownEnvelopeDigest(signed),
          data: {
            executionId,
            proposalId: p.id,
            agentId: p.agentId,
            route: origin?.route ?? 'kernel.authorize',
            actionType: p.actionType,
            status: p.status,
            outcome,
            committedBudget: found.record.reservedAmount,
            decisionAuditIndex: found.record.auditIndex,
            envelope: signed,
          },
        },
        nowMs,
      )(index);
    },
  });
  return settled.settled && signed ? tokenOfFreshEnvelope(signed, k.cloud.keys.proof.keyid) : undefined;
}
