/**
 * The answer to an idempotent repeat: a request whose idempotencyKey (tool_call.id on the agent routes) an
 * earlier request of the tenant took gets that request's decision, with a fresh proof, instead of a
 * decision of its own; the same key with another request, or from another API key, is refused. Reached
 * both when the key is found before deciding and when a concurrent request took it first (authorize's
 * decision then failed with RowConflict and wrote nothing).
 *
 * Where an approval is run at once (the agent routes: approved true means "run the tool now", spec §4 rule 2),
 * a repeat after the approval's expiry is refused with APPROVAL_EXPIRED rather than answered `approved: true`
 * with a governance token that offline verification rejects as expired. The kernel route still returns the
 * decision: it carries its `expiresAt`, and execute refuses an expired proposal. There, too, an approval is
 * answered again only as often as the policy allows identical calls (approved-repeats.ts).
 */
import type { DsseEnvelope } from '@pentagate/protocol';
import { ApiError } from '../app/errors.js';
import { POLICY_DEFAULTS } from '../policy/policy-schema.js';
import { signedTiersOf } from '../decisions/decision-statement.js';
import { proofPacket } from '../routes/proofs.js';
import { RowConflict } from '../store/composed-row.js';
import type { ProposalRecord } from '../store/kernel-store.js';
import type { AuthorizeResult } from './authorize.js';
import type { KernelContext } from './kernel-context.js';
import { findKernelDecision } from './kernel-decision.js';

/**
 * How long a repeat waits for the first request's decision to become durable (SQLite group commit: it is
 * visible once committed, provable once its batch is synced). Generous on purpose: that normally takes
 * milliseconds, but on a loaded host a short wait turned a legitimate concurrent repeat into a 409.
 */
const IDEMPOTENT_WAIT_MS = 30_000;
const IDEMPOTENT_POLL_MS = 20;

export async function earlierDecision(
  k: KernelContext,
  tenantId: string,
  existing: ProposalRecord,
  repeat: {
    actionDigest: string;
    callerKeyId: string;
    /** It collided with the first request while both were being decided (RowConflict). */
    raced: boolean;
  },
  keyName: string,
  withProof: boolean,
  approvalRunsAtOnce: boolean,
): Promise<AuthorizeResult> {
  const { actionDigest } = repeat;
  // Who asks is part of the request: the decision was made under the first key's binding (region,
  // department, agent), and another key's repeat would otherwise be handed an approval its own binding
  // refuses (outside spec review). Proposals stored before the proposer was recorded cannot be told apart.
  if (existing.proposedBy !== null && existing.proposedBy !== repeat.callerKeyId) {
    throw new ApiError(
      'IDEMPOTENCY_CONFLICT',
      `${keyName} was used by another API key (${existing.proposedBy}); a repeat must come from the key that ` +
        `made the request, since its decision was made under that key's binding: use a new ${keyName}`,
      { proposalId: existing.id },
    );
  }
  if (existing.actionDigest !== actionDigest) {
    throw new ApiError(
      'IDEMPOTENCY_CONFLICT',
      `${keyName} was used for another request (digest ${existing.actionDigest}); this request has ` +
        `digest ${actionDigest}: use a new ${keyName}`,
      { proposalId: existing.id },
    );
  }
  const until = Date.now() + IDEMPOTENT_WAIT_MS;
  // A repeat sent while the first request was still being decided (it collided with it, or found it not yet
  // durable) is that request sent twice at once, a client's retry: only repeats of an answered approval are
  // counted (approved-repeats.ts).
  let concurrent = repeat.raced;
  for (;;) {
    const found = await findKernelDecision(k, tenantId, existing.id);
    // visible is not yet durable (SQLite group commit): answered only once its audit entry is provable
    if (found && found.record.auditIndex < (await k.cloud.store.auditSize())) {
      const nowMs = k.nowMs();
      if (approvalRunsAtOnce && existing.status === 'ALLOW' && nowMs > existing.expiresAtMs) {
        throw new ApiError(
          'APPROVAL_EXPIRED',
          `this ${keyName} was approved at ${new Date(existing.createdAtMs).toISOString()} ` +
            `and that approval expired at ${new Date(existing.expiresAtMs).toISOString()}: do not run the tool on it; ` +
            `propose the call again with a new ${keyName}`,
          { proposalId: existing.id, expiresAt: new Date(existing.expiresAtMs).toISOString() },
        );
      }
      if (approvalRunsAtOnce && existing.status === 'ALLOW' && !concurrent)
        await countApprovedRepeat(k, tenantId, existing, keyName);
      const proof = withProof ? await proofPacket(k.cloud, tenantId, existing.id) : undefined;
      const envelope = found.record.envelope as unknown as DsseEnvelope;
      return {
        decision: proof ? { ...found.body, proof } : found.body,
        created: false,
        envelope,
        tiers: signedTiersOf(envelope),
        reason: found.reason,
      };
    }
    if (Date.now() >= until) break;
    concurrent = true;
    await new Promise((r) => setTimeout(r, IDEMPOTENT_POLL_MS));
  }
  throw new ApiError(
    'IDEMPOTENCY_CONFLICT',
    `the first request with this ${keyName} is still being decided; retry shortly`,
    { proposalId: existing.id },
  );
}

/**
 * Counts one more answer to a repeat of an approved agent-route call, refusing it with CALL_REPEATED once it
 * is more than the policy's `metabolic.maxIdentical` within `repeatWindowMs` (approved-repeats.ts).
 */
async function countApprovedRepeat(
  k: KernelContext,
  tenantId: string,
  existing: ProposalRecord,
  keyName: string,
): Promise<void> {
  const nowMs = k.nowMs();
  const policy = await k.cloud.policies.forTenant(tenantId, nowMs);
  const { maxIdentical, repeatWindowMs } = policy?.metabolic ?? POLICY_DEFAULTS;
  const repeats = k.approvedRepeats.record(existing.id, nowMs, repeatWindowMs);
  if (repeats <= maxIdentical) return;
  k.approvedRepeats.forget(existing.id);
  throw new ApiError(
    'CALL_REPEATED',
    `this ${keyName} was approved once and has been sent again ${repeats - 1} times in the last ${repeatWindowMs} ms ` +
      `(at most ${maxIdentical} repeats of one call are answered): an agent that sends one call over and over is ` +
      `looping (metabolic ledger, specification §1.10); do not run the tool again on it, and propose a new call ` +
      `with a new ${keyName} if it must run again`,
    { proposalId: existing.id },
  );
}

/**
 * The proposal that holds `key`, when a decision failed because its proposal row collided (RowConflict):
 * a concurrent request with the same key committed first. Anything else is rethrown as it was.
 */
export async function proposalHoldingKey(
  k: KernelContext,
  tenantId: string,
  key: string | undefined,
  err: unknown,
): Promise<ProposalRecord> {
  if (err instanceof RowConflict && key !== undefined) {
    const existing = await k.store.findByIdempotencyKey(tenantId, key);
    if (existing) return existing;
  }
  throw err;
}
