/**
 * The per-key cap on open proposals waiting for a human (`openProposalsPerKey`, default 100). Every REQUIRE_HUMAN
 * and HELD_FOR_VETO proposal is an item an operator must read; without a cap one agent key filled the approvals
 * queue with 500 junk proposals in under a minute and a held `policy:update` behind them ran unreviewed when its
 * hold ended (outside review F4). Checked after the decision is made and before it is committed, so a refused
 * proposal reserves no budget and queues nothing; an ALLOW or DENY is never refused by it (an `actuator:stop`
 * must always pass). Counted per API key, not per agent named: an unbound key may name any agent.
 */
import type { AuthorizationStatus } from '@pentagate/protocol';
import type { Caller } from '../app/auth.js';
import { ApiError } from '../app/errors.js';
import type { KernelContext } from './kernel-context.js';

export async function refuseBeyondOpenCap(
  k: KernelContext,
  caller: Caller,
  status: AuthorizationStatus,
): Promise<void> {
  if (status !== 'REQUIRE_HUMAN' && status !== 'HELD_FOR_VETO') return;
  const cap = k.settings.openProposalsPerKey;
  const open = await k.store.countOpenByKey(caller.tenantId, caller.keyId, cap);
  if (open < cap) return;
  throw new ApiError(
    'OPEN_PROPOSALS_LIMIT',
    `this API key (${caller.keyId}) already has ${cap} proposals waiting for an operator, the most it may have; this ${status} proposal was not queued and reserved nothing: propose it again once an operator has decided some of them`,
    { openProposals: open, limit: cap },
  );
}
