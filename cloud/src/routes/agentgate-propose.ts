/**
 * `POST /api/v1/agentgate/propose` → `{ approved, governance_token, reason, tiers, violations }`. The token
 * is present only on approval. The decision id travels in the `x-pentagate-decision-id` header so the agent
 * (or its auditor) can fetch the proof packet from `/api/v1/proofs/:decisionId`.
 */
import { GovernanceVerdictSchema, type ToolCall, ToolCallSchema } from '@pentagate/protocol';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../app/auth.js';
import type { CloudContext } from '../app/context.js';
import { ApiError } from '../app/errors.js';
import { ROUTE_SCOPES } from '../app/scopes.js';
import { ERROR_RESPONSES } from './error-responses.js';

export const DECISION_ID_HEADER = 'x-pentagate-decision-id';

export function registerAgentgatePropose(app: FastifyInstance, cloud: CloudContext): void {
  app.post(
    '/api/v1/agentgate/propose',
    {
      config: { scopes: ROUTE_SCOPES.agent },
      schema: {
        summary: 'Propose one tool call; get the pentagon verdict and, if approved, a governance token',
        body: ToolCallSchema,
        response: { 200: GovernanceVerdictSchema, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const call = request.body as ToolCall;
      const agent = await cloud.store.findAgentByLobe(caller.tenantId, call.lobe_name);
      if (!agent) {
        throw new ApiError(
          'UNKNOWN_LOBE',
          `lobe_name: expected a lobe registered in your tenant, got ${JSON.stringify(call.lobe_name)}`,
        );
      }
      const decision = await cloud.governor.govern({
        route: 'agentgate.propose',
        tenantId: caller.tenantId,
        agent,
        call,
        actionRequest: call,
        nowMs: Date.now(),
      });
      cloud.metrics.decisions.inc({ route: 'propose', outcome: decision.status });
      reply.header(DECISION_ID_HEADER, decision.decisionId);
      return {
        approved: decision.approved,
        ...(decision.governanceToken ? { governance_token: decision.governanceToken } : {}),
        reason: decision.reason,
        tiers: decision.tiers,
        violations: decision.violations,
      };
    },
  );
}
