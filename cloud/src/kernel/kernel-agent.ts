/**
 * The agent behind a proposal on the routes that register on first contact (specification §2.5 and §4
 * rule 6 for `/selfcorrect`; the kernel's `context.agentId` likewise): the caller's tenant's agent of that
 * reference, or, for one the tenant never met, a new agent named by it (id = lobe = the reference, or an
 * identifier made from a name outside the identifier alphabet: agent-reference.ts), with its
 * `agent.registered` audit entry. An agent-bound key (app/agent-binding.ts) is refused before anything is
 * registered when the agent is not its own.
 *
 * A new agent is registered only once its first proposal is admitted (authorize.ts, `firstContact`): until
 * then the proposal is decided for the record registration would create. A first proposal refused before its
 * decision (the key's cap of open proposals, a malformed header) left a registered agent and an
 * `agent.registered` entry for an agent that never made a proposal (last review, item 2).
 */
import type { Caller } from '../app/auth.js';
import { requireAgentOfKey } from '../app/agent-binding.js';
import { ApiError } from '../app/errors.js';
import type { AuthorizeRequest } from './authorize.js';
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

/** An agent as a proposal meets it: registered, or (first contact) the record its registration would create. */
export interface MetAgent {
  agent: AgentRecord;
  /** Set for an agent the tenant never met: registers it; answers the record stored. */
  register?: () => Promise<AgentRecord>;
}

export async function meetAgent(
  k: KernelContext,
  caller: Caller,
  contact: FirstContact,
  nowMs: number,
): Promise<MetAgent> {
  const known = await knownAgentOfKey(k, caller, contact.agentId, contact.field);
  if (known) return { agent: known };
  const id = agentRecordId(contact.agentId);
  const agent: AgentRecord = {
    id,
    tenantId: caller.tenantId,
    name: contact.agentId,
    version: contact.version,
    domain: contact.domain,
    lobeName: id,
    // a first registration of its name opens its own account; registering joins an older one's (the
    // record stored then differs, and authorize decides again for it)
    accountId: id,
    createdAtMs: nowMs,
    metadata: { registeredBy: contact.registeredBy },
  };
  return { agent, register: () => registerMet(k, caller, contact, agent) };
}

async function registerMet(
  k: KernelContext,
  caller: Caller,
  contact: FirstContact,
  agent: AgentRecord,
): Promise<AgentRecord> {
  const outcome = await registerAgent(
    k.cloud.store,
    {
      tenantId: caller.tenantId,
      id: agent.id,
      name: agent.name,
      version: agent.version,
      domain: agent.domain,
      lobeName: agent.lobeName,
      metadata: agent.metadata,
      actor: caller.keyId,
    },
    agent.createdAtMs,
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

/** Whether a decision for `a` is one for `b`: the fields deciding and the signed statement read agree. */
export function decidedAlike(a: AgentRecord, b: AgentRecord): boolean {
  return (
    a.id === b.id &&
    a.accountId === b.accountId &&
    a.lobeName === b.lobeName &&
    a.domain === b.domain &&
    a.version === b.version &&
    a.metadata.modelId === b.metadata.modelId
  );
}

/**
 * The request for the met agent: for a new one, with what authorize needs to register it once the proposal
 * is admitted, and to build the request again for the record stored if that differs (`requestFor`).
 */
export function requestForMet(
  met: MetAgent,
  requestFor: (agent: AgentRecord) => AuthorizeRequest,
): AuthorizeRequest {
  const req = requestFor(met.agent);
  return met.register ? { ...req, firstContact: { register: met.register, requestFor } } : req;
}

/** Where a kernel proposal names its agent. */
export const KERNEL_AGENT_FIELD = '/context/agentId';

/** The agent of a kernel proposal: `context.agentId`, met on first contact with domain GENERAL. */
export function kernelAgent(
  k: KernelContext,
  caller: Caller,
  agentId: string,
  nowMs: number,
): Promise<MetAgent> {
  return meetAgent(
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
