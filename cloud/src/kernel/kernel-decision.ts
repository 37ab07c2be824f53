/**
 * Reads a kernel decision back: the platform's decision record (signed envelope, audit index) with the
 * kernel's part of its `verdict` JSON (the decision as returned and the replay input; stored-verdict.ts
 * puts back what the row holds once). A decision of the AgentGate routes has no kernel part and is not a
 * kernel proposal.
 */
import { ApiError } from '../app/errors.js';
import type { DecisionRecord } from '../store/records.js';
import type { DecisionBody } from './decide.js';
import type { KernelContext } from './kernel-context.js';
import type { KernelDecisionRecord } from './replay-input.js';
import { readStoredVerdict } from './stored-verdict.js';

export interface KernelDecision {
  record: DecisionRecord;
  kernel: KernelDecisionRecord;
  body: DecisionBody;
  /** The reason the answer gave. */
  reason: string;
}

export async function findKernelDecision(
  k: KernelContext,
  tenantId: string,
  proposalId: string,
): Promise<KernelDecision | undefined> {
  const record = await k.cloud.store.getDecision(tenantId, proposalId);
  const verdict = record && readStoredVerdict(record);
  if (!record || !verdict) return undefined;
  return { record, kernel: verdict.kernel, body: verdict.decision, reason: verdict.reason };
}

export function proposalNotFound(proposalId: string): ApiError {
  return new ApiError(
    'PROPOSAL_NOT_FOUND',
    `proposalId: expected a kernel proposal of your tenant, got ${JSON.stringify(proposalId)}`,
  );
}

export async function requireKernelDecision(
  k: KernelContext,
  tenantId: string,
  proposalId: string,
): Promise<KernelDecision> {
  const found = await findKernelDecision(k, tenantId, proposalId);
  if (!found) throw proposalNotFound(proposalId);
  return found;
}
