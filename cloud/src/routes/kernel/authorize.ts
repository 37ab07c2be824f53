/**
 * `POST /api/v1/kernel/authorize`: ProposedAction → AuthorizationDecision (200 for every status: a DENY
 * is an answer, not an error). The proposal id also travels in `x-pentagate-decision-id`.
 */
import { AuthorizationDecisionSchema, type ProposedAction, ProposedActionSchema } from '@pentagate/protocol';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../../app/auth.js';
import { ROUTE_SCOPES } from '../../app/scopes.js';
import { authorize } from '../../kernel/authorize.js';
import type { KernelContext } from '../../kernel/kernel-context.js';
import { DECISION_ID_HEADER } from '../agentgate-propose.js';
import { ERROR_RESPONSES } from '../error-responses.js';

export function registerKernelAuthorize(app: FastifyInstance, k: KernelContext): void {
  app.post(
    '/api/v1/kernel/authorize',
    {
      config: { scopes: ROUTE_SCOPES.agent },
      schema: {
        summary:
          'Propose an action; get ALLOW (with proof), DENY (with remediation), REQUIRE_HUMAN or HELD_FOR_VETO',
        body: ProposedActionSchema,
        response: { 200: AuthorizationDecisionSchema, ...ERROR_RESPONSES, 409: ERROR_RESPONSES[403] },
      },
    },
    async (request, reply) => {
      const action = request.body as ProposedAction;
      const { decision } = await authorize(k, callerOf(request), {
        route: 'kernel.authorize',
        action,
        actionRequest: action,
        subjectName: `kernel:${action.type}`,
        ...(action.idempotencyKey !== undefined ? { idempotencyKey: action.idempotencyKey } : {}),
      });
      reply.header(DECISION_ID_HEADER, decision.proposalId);
      return decision;
    },
  );
}
