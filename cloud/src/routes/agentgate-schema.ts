/**
 * `GET /api/v1/agentgate/schema` (specification §4): the JSON Schemas of registration, propose, verdict
 * and self-correction, what each tier object holds, the domains, the confidence threshold and every
 * violation code — what an agent builder needs to speak to the gate without reading our source.
 */
import {
  AGENT_DOMAINS,
  APPROVAL_VIOLATION_CODES,
  AgentRegistrationSchema,
  ProposeRequestSchema,
  ArbitrationTierSchema,
  EconomicTierSchema,
  GovernanceVerdictSchema,
  JurisdictionTierSchema,
  ProofFirewallTierSchema,
  RegistrationResultSchema,
  SelfCorrectClearedSchema,
  SelfCorrectRequestSchema,
  SimulationTierSchema,
  ToolCallSchema,
  VIOLATION_CODES,
  ZkInferenceTierSchema,
} from '@pentagate/protocol';
import type { FastifyInstance } from 'fastify';
import { ROUTE_SCOPES } from '../app/scopes.js';
import type { KernelRuleSettings } from '../kernel/kernel-settings.js';
import { KERNEL_VIOLATION_CODES } from '../kernel/kernel-violations.js';
import { documentedResponses, ERROR_RESPONSES } from './error-responses.js';
import { SelfCorrectForbiddenSchema } from './selfcorrect-responses.js';

/** Plain JSON Schema (TypeBox adds symbol keys, which JSON drops anyway). */
function plain(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema));
}

export function agentgateSchemaDocument(settings: KernelRuleSettings): Record<string, unknown> {
  return {
    registration: plain(AgentRegistrationSchema),
    registration_result: plain(RegistrationResultSchema),
    propose: plain(ProposeRequestSchema),
    tool_call: plain(ToolCallSchema),
    verdict: plain(GovernanceVerdictSchema),
    self_correct: {
      request: plain(SelfCorrectRequestSchema),
      cleared: plain(SelfCorrectClearedSchema),
      // every 403 body: a decided veto, or a refusal before any decision (routes/selfcorrect-responses.ts)
      veto: plain(SelfCorrectForbiddenSchema),
    },
    tiers: {
      tier1: {
        zkInference: {
          about: 'SHA-256 commitment to model id, trigger prompt and arguments; binding, NOT zero-knowledge',
          schema: plain(ZkInferenceTierSchema),
        },
        jurisdiction: {
          about: 'region, department and data-residency rules; a veto carries a compliance defence brief',
          schema: plain(JurisdictionTierSchema),
        },
      },
      tier2: {
        proofFirewall: {
          about: 'prompt-injection scores, custody-attestation checks, protected resources',
          schema: plain(ProofFirewallTierSchema),
        },
        arbitration: {
          about: 'how the rules combined: deny overrides; consent raises REQUIRE_HUMAN or HELD_FOR_VETO',
          schema: plain(ArbitrationTierSchema),
        },
      },
      tier3: {
        economic: {
          about: 'budget reserve and the metabolic ledger (loops, waste, call depth, policy probing)',
          schema: plain(EconomicTierSchema),
        },
        simulation: {
          about: 'projected budget and effects after the call',
          schema: plain(SimulationTierSchema),
        },
      },
    },
    domains: AGENT_DOMAINS,
    policy: {
      confidence_threshold: settings.minConfidence,
      below_threshold:
        'REQUIRE_HUMAN (CONSENT.LOW_CONFIDENCE): tool_call.agent_confidence, action.confidence and ' +
        'context.confidenceScore below the threshold wait for an operator in the approvals queue',
      jurisdiction:
        'region and department are the ones the tenant administrator bound to the API key; a call that ' +
        'claims others is refused (INVARIANT.JURISDICTION_CLAIM)',
      idempotency: 'the same tool_call.id from the same lobe gets the same verdict and reserves budget once',
    },
    violation_codes: { ...VIOLATION_CODES, ...KERNEL_VIOLATION_CODES, ...APPROVAL_VIOLATION_CODES },
  };
}

export function registerAgentgateSchema(app: FastifyInstance, settings: KernelRuleSettings): void {
  const document = agentgateSchemaDocument(settings);
  const documentSchema = {
    type: 'object',
    description:
      'JSON Schemas of the agent routes (registration, propose, tool call, verdict, self-correction), what each ' +
      'tier object holds, the domains, the policy settings an agent sees and every violation code',
    required: Object.keys(document),
    properties: Object.fromEntries(Object.keys(document).map((k) => [k, { type: 'object' }])),
  };
  app.get(
    '/api/v1/agentgate/schema',
    {
      config: {
        scopes: ROUTE_SCOPES.keys,
        // The 200 body in the document only: a response schema would have the serializer drop whatever
        // it does not list, and the document is static JSON built once.
        swaggerTransform: documentedResponses({ 200: documentSchema }),
      },
      schema: {
        summary: 'Schemas, tier documentation, domains and violation codes',
        response: ERROR_RESPONSES,
      },
    },
    async () => document,
  );
}
