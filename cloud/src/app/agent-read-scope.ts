/**
 * What a key bound to one agent (agent-binding.ts) may read: that agent's decisions, proofs, replays and
 * audit events, under any of its versions, and no other agent's. Acting as another agent was already refused;
 * reading was not, so one agent's key disclosed every other agent's calls, arguments and verdicts in its
 * tenant. An unbound key reads its whole tenant, as before.
 */
import { dottedPath } from '../json-pointer.js';
import { agentRecordId } from '../kernel/agent-reference.js';
import type { Store } from '../store/store.js';
import type { Caller } from './auth.js';
import { ApiError } from './errors.js';

type AgentLookup = Pick<Store, 'findAgentById'>;

/** True when `caller` may read the records of the stored agent `agentRecordId`. */
export async function readsAgent(
  store: AgentLookup,
  caller: Caller,
  agentRecordId: string,
): Promise<boolean> {
  if (caller.agentName === undefined) return true;
  const agent = await store.findAgentById(caller.tenantId, agentRecordId);
  return agent?.name === caller.agentName;
}

/**
 * Refuses a decision a bound key may not read with `notFound`, the error an unknown id gets, so a key
 * cannot learn which ids other agents' decisions have.
 */
export async function requireReadableDecision(
  store: AgentLookup & Pick<Store, 'getDecision'>,
  caller: Caller,
  decisionId: string,
  notFound: () => ApiError,
): Promise<void> {
  if (caller.agentName === undefined) return;
  const decision = await store.getDecision(caller.tenantId, decisionId);
  if (decision && (await readsAgent(store, caller, decision.agentId))) return;
  throw notFound();
}

/**
 * The stored agent id whose audit events a listing reads: the one asked for (a name or an id, as on
 * authorize), which a bound key may only name as its own agent; for a bound key that names none, its own.
 */
export async function auditAgentFilter(
  store: AgentLookup,
  caller: Caller,
  asked: string | undefined,
  field: string,
): Promise<string | undefined> {
  if (caller.agentName === undefined) return asked === undefined ? undefined : agentRecordId(asked);
  const agentId = agentRecordId(asked ?? caller.agentName);
  if (await readsAgent(store, caller, agentId)) return agentId;
  throw new ApiError(
    'AGENT_FORBIDDEN',
    `${dottedPath(field)}: this API key is bound to agent ${JSON.stringify(caller.agentName)} and reads only its events; ` +
      (asked === undefined
        ? 'name one of its agent ids'
        : `got ${JSON.stringify(asked)}, which is not one of its agent ids`),
    { issues: [{ path: field, message: `the key reads only agent ${JSON.stringify(caller.agentName)}` }] },
  );
}
