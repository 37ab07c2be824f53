/**
 * `execute`: runs a proposal exactly once. Executable: an ALLOW; a HELD_FOR_VETO whose hold elapsed
 * unvetoed; a REQUIRE_HUMAN an operator approved — each before its expiry. The store's settlement moves
 * the proposal to `executed`, commits the budget reservation and appends the `execution` entry in one
 * transaction, so of any number of concurrent calls — on any replica — exactly one succeeds; the others
 * see `executed` (409 DOUBLE_EXECUTION). Anything else is 403 EXECUTION_DENIED naming why.
 */
import { ownEnvelopeDigest } from '../pentagon/digest.js';
import { type DsseEnvelope, type ExecutionResult, newId } from '@pentagate/protocol';
import type { Caller } from '../app/auth.js';
import { requireAgentOfKey } from '../app/agent-binding.js';
import { ApiError } from '../app/errors.js';
import { AuditLog } from '../audit/audit-log.js';
import { packetOfEntry, proofPacket } from '../routes/proofs.js';
import { auditEvents } from './audit-events.js';
import type { ProposalState } from '../store/kernel-store.js';
import { expireProposal } from './expiry.js';
import type { KernelContext } from './kernel-context.js';
import { proposalNotFound, requireKernelDecision } from './kernel-decision.js';

const WHY_NOT: Record<ProposalState, string> = {
  open: 'it is still waiting',
  approved: 'it is approved',
  executed: 'it was already executed',
  denied: 'it was denied',
  vetoed: 'it was vetoed by an operator',
  expired: 'it expired',
  superseded: 'it was superseded by an earlier request with the same idempotencyKey',
};

function doubleExecution(proposalId: string): ApiError {
  return new ApiError(
    'DOUBLE_EXECUTION',
    `proposal ${proposalId} was already executed; it runs exactly once`,
  );
}

function denied(proposalId: string, why: string, state: ProposalState | undefined): ApiError {
  return new ApiError('EXECUTION_DENIED', `proposal ${proposalId} may not execute: ${why}`, {
    state: state ?? null,
  });
}

export async function execute(
  k: KernelContext,
  caller: Caller,
  proposalId: string,
): Promise<ExecutionResult> {
  const tenantId = caller.tenantId;
  const nowMs = k.nowMs();
  const found = await requireKernelDecision(k, tenantId, proposalId);
  if (caller.agentName !== undefined) {
    // executing commits the proposal's reservation: a bound key spends only its own agent's budget
    const agent = await k.cloud.store.findAgentById(tenantId, found.record.agentId);
    requireAgentOfKey(caller, agent?.name ?? found.record.agentId, '/proposalId');
  }
  const proposal = await k.store.getProposal(tenantId, proposalId);
  if (!proposal) throw proposalNotFound(proposalId);
  const { body } = found;
  if (proposal.state === 'executed') throw doubleExecution(proposalId);
  if (body.status === 'DENY') {
    const codes = body.violations.map((v) => v.code).join(', ');
    throw denied(proposalId, `it was denied at authorize (${codes})`, proposal.state);
  }
  if (nowMs > Date.parse(body.expiresAt)) {
    const expired = await expireProposal(k, proposal, nowMs);
    if (!expired.settled && expired.current === 'executed') throw doubleExecution(proposalId);
    throw denied(
      proposalId,
      `it expired at ${body.expiresAt}`,
      expired.settled ? 'expired' : expired.current,
    );
  }
  if (proposal.state === 'vetoed') throw denied(proposalId, WHY_NOT.vetoed, proposal.state);
  if (body.status === 'HELD_FOR_VETO' && body.holdUntil && nowMs < Date.parse(body.holdUntil)) {
    throw denied(proposalId, `it is held for veto until ${body.holdUntil}`, proposal.state);
  }
  const from: ProposalState[] = body.status === 'REQUIRE_HUMAN' ? ['approved'] : ['open'];
  const envelope = found.record.envelope as unknown as DsseEnvelope;
  const reservationId = found.kernel.reservationId;
  const executionId = newId('exe', nowMs);
  const settled = await k.store.settle({
    tenantId,
    proposalId,
    from,
    to: 'executed',
    nowMs,
    actor: caller.keyId,
    ...(reservationId ? { reservation: { id: reservationId, state: 'committed' as const } } : {}),
    audit: AuditLog.builder(
      {
        type: 'execution',
        tenantId,
        actor: caller.keyId,
        subjectDigest: ownEnvelopeDigest(envelope),
        data: {
          executionId,
          proposalId,
          agentId: found.record.agentId,
          actionType: found.kernel.input.action.type,
          status: body.status,
          committedBudget: found.record.reservedAmount,
          decisionAuditIndex: found.record.auditIndex,
        },
      },
      nowMs,
    ),
  });
  if (!settled.settled) {
    if (settled.current === 'executed') throw doubleExecution(proposalId);
    const why =
      settled.current === 'open' && body.status === 'REQUIRE_HUMAN'
        ? 'it is waiting for an operator to approve it'
        : WHY_NOT[settled.current ?? 'denied'];
    throw denied(proposalId, why, settled.current);
  }
  k.cloud.metrics.decisions.inc({ route: 'kernel.execute', outcome: 'EXECUTED' });
  const proof = await proofPacket(k.cloud, tenantId, proposalId);
  const approvalProof =
    body.status === 'REQUIRE_HUMAN' ? await approvalPacket(k, tenantId, proposalId) : undefined;
  return {
    executionId,
    proposalId,
    executed: true,
    executedAt: new Date(nowMs).toISOString(),
    auditIndex: settled.audit.index,
    proof,
    ...(approvalProof ? { approvalProof } : {}),
  };
}

/**
 * The proof packet of the operator's signed approval of a REQUIRE_HUMAN (its `approval` audit entry): the
 * decision's own packet says only that a human was required, and an offline verifier must be able to see
 * that one approved (specification §1.7; outside spec review).
 */
async function approvalPacket(k: KernelContext, tenantId: string, proposalId: string) {
  const { events } = await auditEvents(k, tenantId, { type: 'approval', proposalId, limit: 1 });
  const envelope = events[0]?.data.envelope as DsseEnvelope | undefined;
  return events[0] && envelope ? packetOfEntry(k.cloud, envelope, events[0].index) : undefined;
}
