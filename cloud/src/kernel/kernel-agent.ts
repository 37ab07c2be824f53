/**
 * The agent behind a proposal on the routes that register on first contact (specification §2.5 and §4
 * rule 6 for `/selfcorrect`; the kernel's `context.agentId` likewise): the caller's tenant's agent of that
 * reference, or, for one the tenant never met, a new agent named by it (id = lobe = the reference, or an
 * identifier made from a name outside the identifier alphabet: agent-reference.ts), with its
 * `agent.registered` audit entry. An agent-bound key (app/agent-binding.ts) is refused before anything is
 * registered when the agent is not its own.
 */
import type { Caller } from '../app/auth.js';
import { requireAgentOfKey } from '../app/agent-binding.js';
import { ApiError } from '../app/errors.js';
import { dottedPath } from '../json-pointer.js';
import { registerAgent } from '../routes/agentgate-register.js';
import { agentRecordId } from './agent-reference.js';
import type { AgentRecord } from '../store/records.js';
import type { KernelContext } from './kernel-context.js';

export const KERNEL_FIRST_CONTACT_VERSION = 'kernel';

/** Who is met on first contact, and how the route records it. */
export interface FirstContact {
  agentId: string;
  domain: string;
  /** The agent_version recorded for an agent registered here. */
  version: string;
  /** The route, recorded in the agent's metadata as `registeredBy`. */
  registeredBy: string;
  /** The request member that carries the agent id (JSON Pointer), for error messages. */
  field: string;
}

/**
 * The tenant's agent of `agentId` (its id, its name's identifier, or its lobe name), if any, after checking
 * that the caller's key may act as it: an agent met here is named by its id, and that is the name a bound key
 * must hold (AGENT_FORBIDDEN otherwise).
 */
export async function knownAgentOfKey(
  k: KernelContext,
  caller: Caller,
  agentId: string,
  field: string,
): Promise<AgentRecord | undefined> {
  // any printable name is a reference; its record has an identifier made from it (agent-reference.ts)
  const store = k.cloud.store;
  const known =
    (await store.findAgentById(caller.tenantId, agentRecordId(agentId))) ??
    // a client of the specification knows its agent by the lobe_name registration returned (§2.2): that
    // agent, never a new one of the same name whose lobe would collide with it
    (await store.findAgentByLobe(caller.tenantId, agentId));
  requireAgentOfKey(caller, known?.name ?? agentId, field);
  return known;
}

export async function agentOnFirstContact(
  k: KernelContext,
  caller: Caller,
  contact: FirstContact,
  nowMs: number,
): Promise<AgentRecord> {
  const known = await knownAgentOfKey(k, caller, contact.agentId, contact.field);
  if (known) return known;
  const outcome = await registerAgent(
    k.cloud.store,
    {
      tenantId: caller.tenantId,
      id: agentRecordId(contact.agentId),
      name: contact.agentId,
      version: contact.version,
      domain: contact.domain,
      lobeName: agentRecordId(contact.agentId),
      metadata: { registeredBy: contact.registeredBy },
      actor: caller.keyId,
    },
    nowMs,
  );
  if ('conflict' in outcome) {
    const path = dottedPath(contact.field);
    throw new ApiError(
      'INVALID_BODY',
      // only when a lobe of this name was registered while this agent was being met (the look-up above
      // resolves an existing one)
      `${path}: ${JSON.stringify(contact.agentId)} is the lobe name of another agent of your tenant; name that agent by its agent_name, or the agent_id its registration returned`,
      { issues: [{ path: contact.field, message: 'the lobe name of another agent of this tenant' }] },
    );
  }
  return outcome.agent;
}

/** Where a kernel proposal names its agent. */
export const KERNEL_AGENT_FIELD = '/context/agentId';

/** The agent of a kernel proposal: `context.agentId`, registered on first contact with domain GENERAL. */
export function kernelAgent(
  k: KernelContext,
  caller: Caller,
  agentId: string,
  nowMs: number,
): Promise<AgentRecord> {
  return agentOnFirstContact(
    k,
    caller,
    {
      agentId,
      domain: 'GENERAL',
      version: KERNEL_FIRST_CONTACT_VERSION,
      registeredBy: 'kernel',
      field: KERNEL_AGENT_FIELD,
    },
    nowMs,
  );
}
