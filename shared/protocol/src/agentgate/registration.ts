/**
 * `POST /api/v1/agentgate/register`: an agent announces itself and receives its lobe — the name under
 * which it proposes tool calls and against which budgets and metabolic history are kept. Registration is
 * idempotent for the same tenant, agent name and version.
 */
import { type Static, Type } from '@sinclair/typebox';
import { IdentifierSchema, NameSchema, textSchema } from '../schemas/primitives.js';
import { AgentDomainSchema } from './domains.js';

export const AgentRegistrationSchema = Type.Object(
  {
    agent_name: NameSchema,
    version: Type.String({ minLength: 1, maxLength: 64, pattern: '^[^\\u0000-\\u001f\\u007f]+$' }),
    domain: AgentDomainSchema,
    description: Type.Optional(textSchema()),
    /** Free-form capability tags (`email.send`, `payments`); informative, never a grant. */
    capabilities: Type.Optional(Type.Array(IdentifierSchema, { maxItems: 64 })),
  },
  { additionalProperties: false },
);
export type AgentRegistration = Static<typeof AgentRegistrationSchema>;

export const RegistrationResultSchema = Type.Object(
  {
    lobe_name: IdentifierSchema,
    /** Path (or absolute URL) to post tool calls to, normally `/api/v1/agentgate/propose`. */
    propose_endpoint: Type.String({ minLength: 1, maxLength: 2048 }),
  },
  { additionalProperties: false },
);
export type RegistrationResult = Static<typeof RegistrationResultSchema>;
