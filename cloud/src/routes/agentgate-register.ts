/**
 * `POST /api/v1/agentgate/register` (specification §2.2) `{ agent_name, domain, capabilities,
 * agent_version, model_id }` → `{ lobe_name, propose_endpoint }` (+ `agent_id`). Idempotent for the same
 * tenant, agent name and agent_version: a repeat returns the first lobe (200) and writes nothing; a new
 * agent is stored with an `agent.registered` audit entry (201) — recording its model id and version —
 * in the same transaction. A repeat that declares another model_id, domain or set of capabilities is
 * refused (409 REGISTRATION_CONFLICT): the lobe's decisions commit to the model it registered with (tier 1,
 * zkInference), and the agent's own version is where a change shows (spec §9.2), so it registers anew.
 *
 * A new agent_version is the same agent (spec §9.2: the version of the caller's own agent): it gets its own
 * lobe but joins the account of the agent_name's first registration (AgentRecord.accountId), so its budget
 * window and metabolic history go on where the earlier version's stand. A key bound to an agent
 * (app/agent-binding.ts) registers only that agent_name (403 AGENT_FORBIDDEN otherwise), so it cannot open
 * a fresh budget under a new name either.
 */
import {
  type AgentRegistration,
  AgentRegistrationSchema,
  newId,
  RegistrationResultSchema,
} from '@pentagate/protocol';
import { sha256Hex } from '@pentagate/crypto';
import type { FastifyInstance } from 'fastify';
import { requireAgentOfKey } from '../app/agent-binding.js';
import { callerOf } from '../app/auth.js';
import { addressFor } from '../app/public-url.js';
import type { CloudContext } from '../app/context.js';
import { ApiError } from '../app/errors.js';
import { ROUTE_SCOPES } from '../app/scopes.js';
import { AuditLog } from '../audit/audit-log.js';
import type { AgentRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { ERROR_RESPONSES } from './error-responses.js';

export const PROPOSE_ENDPOINT = '/api/v1/agentgate/propose';

/** The characters a lobe name is written in (a URL path segment and a log field need no escaping). */
const LOBE_ALPHABET = /^[A-Za-z0-9._-]+$/;

/**
 * A readable lobe name: `<agent_name>@<agent_version>` when both are written in the lobe alphabet and the
 * name starts with a letter or digit. Otherwise the other characters become `-` and a digest of the exact
 * name and version is appended after a `:` (`treasury-bot@2.1:1a2b3c4d`; lobe names are identifiers,
 * `[A-Za-z0-9][A-Za-z0-9._:@-]*`): an agent whose name only looks like another's
 * (a space, a zero-width or look-alike character) can never take that agent's lobe name, and a lobe name
 * without `:` always names its agent exactly.
 */
export function lobeNameFor(agentName: string, version: string): string {
  const exact =
    LOBE_ALPHABET.test(version) && LOBE_ALPHABET.test(agentName) && /^[A-Za-z0-9]/.test(agentName);
  if (exact && agentName.length + version.length < 128) return `${agentName}@${version}`;
  const clean = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-');
  const digest = sha256Hex(JSON.stringify([agentName, version])).slice(0, 8);
  const name = `${clean(agentName)}@${clean(version)}`.replace(/^[^A-Za-z0-9]+/, '');
  return name.length > 0 && name.length <= 119 ? `${name}:${digest}` : newId('lobe');
}

/** The declared fields of a repeat that differ from the registered agent's, as `field: registered → declared`. */
function changedFields(agent: AgentRecord, body: AgentRegistration): string[] {
  const changes: string[] = [];
  const registeredModel = agent.metadata.modelId;
  if (registeredModel !== body.model_id) {
    changes.push(`model_id: ${JSON.stringify(registeredModel)} → ${JSON.stringify(body.model_id)}`);
  }
  if (agent.domain !== body.domain) {
    changes.push(`domain: ${JSON.stringify(agent.domain)} → ${JSON.stringify(body.domain)}`);
  }
  // a set: the order capabilities are listed in says nothing
  const registered = [...new Set((agent.metadata.capabilities as string[] | undefined) ?? [])].sort();
  const declared = [...new Set(body.capabilities)].sort();
  if (registered.join('\u0000') !== declared.join('\u0000')) {
    changes.push(`capabilities: ${JSON.stringify(registered)} → ${JSON.stringify(declared)}`);
  }
  return changes;
}

export async function registerAgent(
  store: Store,
  input: {
    tenantId: string;
    id: string;
    name: string;
    version: string;
    domain: string;
    lobeName: string;
    metadata: Record<string, unknown>;
    actor: string;
  },
  nowMs: number,
): Promise<{ agent: AgentRecord; created: boolean } | { conflict: 'id' | 'lobeName' }> {
  const registration = {
    id: input.id,
    tenantId: input.tenantId,
    name: input.name,
    version: input.version,
    domain: input.domain,
    lobeName: input.lobeName,
    createdAtMs: nowMs,
    metadata: input.metadata,
  };
  const result = await store.registerAgent(
    registration,
    AuditLog.builder(
      {
        type: 'agent.registered',
        tenantId: input.tenantId,
        actor: input.actor,
        data: {
          agentId: input.id,
          name: input.name,
          version: input.version,
          domain: input.domain,
          lobeName: input.lobeName,
          ...input.metadata,
        },
      },
      nowMs,
    ),
  );
  if (result.status === 'conflict') return { conflict: result.field };
  return { agent: result.agent, created: result.status === 'created' };
}

export function registerAgentgateRegister(app: FastifyInstance, cloud: CloudContext, publicUrl?: URL): void {
  app.post(
    '/api/v1/agentgate/register',
    {
      config: { scopes: ROUTE_SCOPES.agent },
      schema: {
        summary: 'Register an agent and get its lobe (idempotent per tenant + name + version)',
        body: AgentRegistrationSchema,
        response: {
          200: RegistrationResultSchema,
          201: RegistrationResultSchema,
          ...ERROR_RESPONSES,
          // REGISTRATION_CONFLICT: the name and version are registered with another model or domain
          409: ERROR_RESPONSES[403],
        },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const body = request.body as AgentRegistration;
      requireAgentOfKey(caller, body.agent_name, '/agent_name');
      const nowMs = Date.now();
      const metadata: Record<string, unknown> = {
        modelId: body.model_id,
        capabilities: body.capabilities,
      };
      if (body.description !== undefined) metadata.description = body.description;
      const base = {
        tenantId: caller.tenantId,
        id: newId('agt', nowMs),
        name: body.agent_name,
        version: body.agent_version,
        domain: body.domain,
        metadata,
        actor: caller.keyId,
      };
      let outcome = await registerAgent(
        cloud.store,
        { ...base, lobeName: lobeNameFor(body.agent_name, body.agent_version) },
        nowMs,
      );
      // the lobe name is taken only by an agent first seen on the kernel routes under that very id (or by
      // an 8-hex-digit digest collision): this one gets a generated name
      if ('conflict' in outcome)
        outcome = await registerAgent(cloud.store, { ...base, lobeName: newId('lobe', nowMs) }, nowMs);
      if ('conflict' in outcome)
        throw new Error(`registration conflict on ${outcome.conflict} with fresh ids`);
      const changes = outcome.created ? [] : changedFields(outcome.agent, body);
      if (changes.length > 0) {
        throw new ApiError(
          'REGISTRATION_CONFLICT',
          `${outcome.agent.lobeName} is registered with other values (${changes.join('; ')}): register the ` +
            'changed agent under a new agent_version',
          { lobe_name: outcome.agent.lobeName },
        );
      }
      reply.code(outcome.created ? 201 : 200);
      return {
        lobe_name: outcome.agent.lobeName,
        propose_endpoint: addressFor(PROPOSE_ENDPOINT, publicUrl, request),
        agent_id: outcome.agent.id,
      };
    },
  );
}
