/**
 * Replay: re-decides a stored proposal from its stored input — the action as sent, the
 * ledger and history as read, the clock, the kernel settings — under the stored policy version, and
 * reports `{ original, replayed, identical, differences }`. With `policyDigest`, under another stored
 * policy version the tenant (or the server default) once activated: a what-if. A budget race the original
 * lost is applied again only under the original policy (the race was against that policy's limit).
 *
 * Under another policy version the budget limit and window come from that version's budget rule, while
 * the spent and reserved totals stay as measured then (over the original window) — an approximation.
 *
 * Not stored, so read as of now: the custody trust keys (a key revoked since may change a PROVENANCE result).
 */
import type { ReplayResult } from '@pentagate/protocol';
import { ApiError } from '../app/errors.js';
import { DEFAULT_POLICY_TENANT } from '../decisions/policy-source.js';
import { NO_POLICY } from '../decisions/decision-statement.js';
import { budgetFor, type LoadedPolicy, loadPolicy } from '../policy/index.js';
import { decide } from './decide.js';
import { jsonDiff } from './json-diff.js';
import type { KernelContext } from './kernel-context.js';
import type { ReplayInput } from './replay-input.js';
import { requireKernelDecision } from './kernel-decision.js';

async function policyVersion(
  k: KernelContext,
  tenantId: string,
  digest: string,
): Promise<LoadedPolicy | undefined> {
  if (digest === NO_POLICY.digest) return undefined;
  // The store decides whose versions the caller may name; the cache, shared by every tenant, only saves
  // parsing a version already found (a cache hit first would hand one tenant another's policy).
  const record = await k.store.policyByDigest([tenantId, DEFAULT_POLICY_TENANT], digest);
  if (!record) {
    throw new ApiError(
      'POLICY_NOT_FOUND',
      `policy: expected the digest of a policy version your tenant or the server default activated, got ${digest}`,
    );
  }
  const cached = k.policyCache.get(digest);
  if (cached) return cached;
  const policy = loadPolicy(record.yamlText, record.source);
  k.policyCache.set(digest, policy);
  return policy;
}

function withBudgetOf(input: ReplayInput, policy: LoadedPolicy | undefined): ReplayInput {
  const budget = policy
    ? budgetFor(policy, { agentId: input.agent.agentId, lobeName: input.agent.lobeName })
    : undefined;
  return {
    ...input,
    ledger: { ...input.ledger, budgetLimit: budget?.amount ?? 0, windowMs: budget?.windowMs ?? 0 },
  };
}

export async function replay(
  k: KernelContext,
  tenantId: string,
  proposalId: string,
  policyDigest?: string,
): Promise<ReplayResult> {
  const found = await requireKernelDecision(k, tenantId, proposalId);
  const stored = found.kernel.input;
  const digest = policyDigest ?? stored.policyDigest;
  const policy = await policyVersion(k, tenantId, digest);
  const whatIf = digest !== stored.policyDigest;
  const lostRace = whatIf ? undefined : found.kernel.lostRace;
  const input = whatIf ? withBudgetOf(stored, policy) : stored;
  const replayed = decide(input, policy, k.custodyTrust, lostRace).decision;
  const differences = jsonDiff(found.body, replayed);
  return { proposalId, original: found.body, replayed, identical: differences.length === 0, differences };
}
