/**
 * `POST /api/v1/agentgate/register` (specification §2.2): an agent announces itself and receives its lobe —
 * the name under which it proposes tool calls and against which budgets and metabolic history are kept.
 * Every field the specification names is required. Registration is idempotent for the same tenant, agent
 * name and agent_version: a repeat returns the first lobe.
 */
import { type Static, Type } from '@sinclair/typebox';
import { IdentifierSchema, NameSchema, textSchema } from '../schemas/primitives.js';
import { AgentDomainSchema } from './domains.js';

/** A version string as agents write them (`1.2.0`, `2025-06-01`, `v3-beta`): printable, 1..64 characters. */
export const AgentVersionSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[^\\u0000-\\u001f\\u007f]+$',
});

export const AgentRegistrationSchema = Type.Object(
  {
    /** Display name of the agent. */
    agent_name: NameSchema,
    /** Business domain, one of AGENT_DOMAINS. */
    domain: AgentDomainSchema,
    /** What the agent can do (`email.send`, `payments`); recorded, informative, never a grant. */
    capabilities: Type.Array(NameSchema, { maxItems: 64 }),
    /** The version of the caller's own agent (not of this service); committed to in tier1 and audited. */
    agent_version: AgentVersionSchema,
    /** The model behind the agent; committed to in tier1 `zkInference` and audited. */
    model_id: NameSchema,
    /** Extra beside the specification: a description shown to operators. */
    description: Type.Optional(textSchema()),
  },
  { additionalProperties: false },
);
export type AgentRegistration = Static<typeof AgentRegistrationSchema>;

export const RegistrationResultSchema = Type.Object(
  {
    lobe_name: IdentifierSchema,
    /** Where to post tool calls: the path `/api/v1/agentgate/propose`, or that path under the server's public URL. */
    propose_endpoint: Type.String({ minLength: 1, maxLength: 2048 }),
    /** Extra beside the specification: the agent's id in the tenant (used by approvals and audit events). */
    agent_id: IdentifierSchema,
  },
  { additionalProperties: false },
);
export type RegistrationResult = Static<typeof RegistrationResultSchema>;
