/**
 * The per-key cap on open proposals waiting for a human (`openProposalsPerKey`, default 100). Every REQUIRE_HUMAN
 * and HELD_FOR_VETO proposal is an item an operator must read; without a cap one agent key filled the approvals
 * queue with 500 junk proposals in under a minute and a held `policy:update` behind them ran unreviewed when its
 * hold ended (outside review F4). Checked after the decision is made and before it is committed, so a refused
 * proposal reserves no budget and queues nothing; an ALLOW or DENY is never refused by it (an `actuator:stop`
 * must always pass). Counted per API key, not per agent named: an unbound key may name any agent. The
 * specification leaves limits open (§8); REQUIRE_HUMAN is its consent vertex (§1.9), which a flood defeats.
 *
 * Checked twice: once before the decision's transaction (refuseBeyondOpenCap: a key at its cap costs no
 * commit), and again inside it (openCapCount, refuseAtOpenCap), where the count sees every decision
 * committed before this one. The first alone let simultaneous requests of one key all read the same count
 * and all pass the cap (last review, item 1).
 */
import type { AuthorizationStatus } from '@pentagate/protocol';
import type { Caller } from '../app/auth.js';
import { ApiError } from '../app/errors.js';
import { openByKeyQuery } from '../store/approvals-queue-query.js';
import type { ComposedCount } from '../store/composed-row.js';
import type { KernelContext } from './kernel-context.js';

/** Whether the cap applies to a decision of this status: only those that wait for a human. */
function waitsForHuman(status: AuthorizationStatus): boolean {
  return status === 'REQUIRE_HUMAN' || status === 'HELD_FOR_VETO';
}

/** Refuses (OPEN_PROPOSALS_LIMIT) a decision of `status` when the key already has `open` of at most `cap`. */
export function refuseAtOpenCap(
  cap: number,
  caller: Caller,
  status: AuthorizationStatus,
  open: number | undefined,
): void {
  if (!waitsForHuman(status) || open === undefined || open < cap) return;
  throw new ApiError(
    'OPEN_PROPOSALS_LIMIT',
    `this API key (${caller.keyId}) already has ${cap} proposals waiting for an operator, the most it may have; this ${status} proposal was not queued and reserved nothing: propose it again once an operator has decided some of them`,
    { openProposals: open, limit: cap },
  );
}

/** Before the transaction: the key's count as committed so far. */
export async function refuseBeyondOpenCap(
  k: KernelContext,
  caller: Caller,
  status: AuthorizationStatus,
): Promise<void> {
  if (!waitsForHuman(status)) return;
  const cap = k.settings.openProposalsPerKey;
  refuseAtOpenCap(cap, caller, status, await k.store.countOpenByKey(caller.tenantId, caller.keyId, cap));
}

/**
 * The count to read inside the decision's transaction (DecisionWrite.count) for a decision of `status`;
 * none for one the cap does not apply to, so an ALLOW or DENY pays no extra read.
 */
export function openCapCount(
  k: KernelContext,
  caller: Caller,
  status: AuthorizationStatus,
): ComposedCount | undefined {
  if (!waitsForHuman(status)) return undefined;
  const cap = k.settings.openProposalsPerKey;
  return (mark) => openByKeyQuery(mark, caller.tenantId, caller.keyId, cap);
}
