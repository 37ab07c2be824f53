/**
 * `POST /api/v1/agentgate/propose` (specification §2.3, §2.4): `{ lobe_name, spend_amount, tool_call }` →
 * 200 `{ approved, governance_token, reason, tiers, violations }` (+ `violation_details`, `decision_id`,
 * `approval_id`). The token is present only when approved. The same tool_call.id from the same lobe gets
 * the same verdict and never reserves budget twice; a call waiting for an operator is released by
 * proposing the same id again once approved (decisions/agent-verdict.ts). The decision id also travels in
 * the `x-pentagate-decision-id` header. A key bound to another agent than the lobe's is refused (403
 * AGENT_FORBIDDEN) and nothing is reserved or recorded; so is a call that needs a human from a key at its cap of
 * open proposals (403 OPEN_PROPOSALS_LIMIT). Each such 403 is `approved: false` with violations and the error body.
 */
import { GovernanceVerdictSchema, type ProposeRequest, ProposeRequestSchema } from '@pentagate/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { requireAgentOfKey } from '../app/agent-binding.js';
import { callerOf } from '../app/auth.js';
import { ApiError } from '../app/errors.js';
import { ROUTE_SCOPES } from '../app/scopes.js';
import { proposeRequest } from '../decisions/agent-requests.js';
import { type AgentVerdict, governAgentCall } from '../decisions/agent-verdict.js';
import type { KernelContext } from '../kernel/kernel-context.js';
import { ERROR_RESPONSES, ErrorResponseSchema } from './error-responses.js';

export const DECISION_ID_HEADER = 'x-pentagate-decision-id';

/** A 403 or 409: the refused verdict's fields (no new decision: no decision id, no token) and the error body. */
const ProposeRefusalSchema = Type.Composite(
  [
    Type.Object({
      approved: Type.Literal(false),
      reason: Type.String(),
      violations: Type.Array(Type.String()),
    }),
    ErrorResponseSchema,
  ],
  { description: 'a refusal before any decision: approved false with violations, and the error body' },
);

/** The verdict as the specification names it, with the structured details beside. */
export function verdictBody(v: AgentVerdict): Record<string, unknown> {
  return {
    approved: v.approved,
    ...(v.governanceToken ? { governance_token: v.governanceToken } : {}),
    reason: v.reason,
    tiers: v.tiers,
    violations: v.violations.map((x) => x.message),
    violation_details: v.violations,
    decision_id: v.decisionId,
    ...(v.approvalId ? { approval_id: v.approvalId } : {}),
  };
}

export function registerAgentgatePropose(app: FastifyInstance, k: KernelContext): void {
  app.post(
    '/api/v1/agentgate/propose',
    {
      // a 403 refusal (another scope, a key bound to another agent, a key at its cap of open proposals) is a
      // verdict too: approved false with violations, the error body beside them (app/verdict-errors.ts)
      config: { scopes: ROUTE_SCOPES.agent, verdictErrors: true },
      schema: {
        summary: 'Propose one tool call; get the pentagon verdict and, if approved, a governance token',
        body: ProposeRequestSchema,
        response: {
          200: GovernanceVerdictSchema,
          ...ERROR_RESPONSES,
          403: ProposeRefusalSchema,
          409: ProposeRefusalSchema,
        },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const body = request.body as ProposeRequest;
      const agent = await k.cloud.store.findAgentByLobe(caller.tenantId, body.lobe_name);
      if (!agent) {
        throw new ApiError(
          'UNKNOWN_LOBE',
          `lobe_name: expected a lobe registered in your tenant, got ${JSON.stringify(body.lobe_name)}`,
          { issues: [{ path: '/lobe_name', message: 'no lobe of this name in your tenant' }] },
        );
      }
      // before the call is governed: a refused key reserves and records nothing (app/agent-binding.ts)
      requireAgentOfKey(caller, agent.name, '/lobe_name');
      const verdict = await governAgentCall(k, caller, proposeRequest(agent, body));
      reply.header(DECISION_ID_HEADER, verdict.decisionId);
      return verdictBody(verdict);
    },
  );
}
