/**
 * Expiry: a proposal not executed by its `expiresAt` can never execute. ALLOW and elapsed holds expire
 * unexecuted; a REQUIRE_HUMAN nobody approved in time expires as denied. Expiring releases the budget
 * reservation and appends an `expiry` entry, in one settlement. It happens when a proposal is touched
 * (execute, approve, list) and in a periodic sweep, so a reservation is never held past expiry for long.
 */
import { ownEnvelopeDigest } from '../pentagon/digest.js';
import type { DsseEnvelope } from '@pentagate/protocol';
import { AuditLog } from '../audit/audit-log.js';
import type { ProposalRecord, SettleResult } from '../store/kernel-store.js';
import type { KernelContext } from './kernel-context.js';

/** Proposals expired per sweep query. */
const SWEEP_BATCH = 100;

export async function expireProposal(
  k: KernelContext,
  p: ProposalRecord,
  nowMs: number,
): Promise<SettleResult> {
  const record = await k.cloud.store.getDecision(p.tenantId, p.id);
  const envelope = record?.envelope as DsseEnvelope | undefined;
  return k.store.settle({
    tenantId: p.tenantId,
    proposalId: p.id,
    from: ['open', 'approved'],
    to: 'expired',
    nowMs,
    actor: 'system',
    ...(p.reservationId ? { reservation: { id: p.reservationId, state: 'released' as const } } : {}),
    audit: AuditLog.builder(
      {
        type: 'expiry',
        tenantId: p.tenantId,
        actor: 'system',
        ...(envelope ? { subjectDigest: ownEnvelopeDigest(envelope) } : {}),
        data: {
          proposalId: p.id,
          agentId: p.agentId,
          actionType: p.actionType,
          status: p.status,
          stateBefore: p.state,
          expiresAt: new Date(p.expiresAtMs).toISOString(),
          releasedReservation: p.reservationId,
        },
      },
      nowMs,
    ),
  });
}

/** Expires every due proposal (in batches); returns how many this call expired. */
export async function sweepExpired(k: KernelContext): Promise<number> {
  const nowMs = k.nowMs();
  let expired = 0;
  for (;;) {
    const due = await k.store.dueForExpiry(nowMs, SWEEP_BATCH);
    let moved = 0;
    for (const p of due) if ((await expireProposal(k, p, nowMs)).settled) moved++;
    expired += moved;
    if (due.length < SWEEP_BATCH || moved === 0) return expired;
  }
}
