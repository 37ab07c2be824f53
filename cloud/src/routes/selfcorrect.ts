/**
 * `POST /api/v1/selfcorrect` → 200 `SERVICE_GOVERNANCE_CLEARED` with a governance token, or 403
 * `SERVICE_GOVERNANCE_VETO` with the violations and one remediation step per failed rule. An unknown
 * `agent_id` is registered on first contact (domain GENERAL unless given; lobe = `lobe_name` or the agent id),
 * with its `agent.registered` audit entry.
 */
import {
  type SelfCorrectRequest,
  SelfCorrectClearedSchema,
  SelfCorrectRequestSchema,
  SelfCorrectVetoSchema,
  type ToolCall,
} from '@pentagate/protocol';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../app/auth.js';
import type { CloudContext } from '../app/context.js';
import { ApiError } from '../app/errors.js';
import { ROUTE_SCOPES } from '../app/scopes.js';
import type { AgentRecord } from '../store/records.js';
import { registerAgent } from './agentgate-register.js';
import { DECISION_ID_HEADER } from './agentgate-propose.js';
import { ERROR_RESPONSES } from './error-responses.js';

/** The version recorded for agents registered by first contact on this route. */
export const FIRST_CONTACT_VERSION = 'selfcorrect';

async function agentFor(
  cloud: CloudContext,
  tenantId: string,
  actor: string,
  body: SelfCorrectRequest,
): Promise<AgentRecord> {
  const known = await cloud.store.findAgentById(tenantId, body.agent_id);
  if (known) return known;
  const lobeName = body.lobe_name ?? body.agent_id;
  const outcome = await registerAgent(
    cloud.store,
    {
      tenantId,
      id: body.agent_id,
      name: body.agent_id,
      version: FIRST_CONTACT_VERSION,
      domain: body.domain ?? 'GENERAL',
      lobeName,
      metadata: { registeredBy: 'selfcorrect' },
      actor,
    },
    Date.now(),
  );
  if ('conflict' in outcome) {
    throw new ApiError(
      'INVALID_BODY',
      `lobe_name: ${JSON.stringify(lobeName)} is registered to another agent of your tenant; name another lobe`,
    );
  }
  return outcome.agent;
}

export function registerSelfCorrect(app: FastifyInstance, cloud: CloudContext): void {
  app.post(
    '/api/v1/selfcorrect',
    {
      config: { scopes: ROUTE_SCOPES.agent },
      schema: {
        summary: 'Ask whether an action would be cleared; a veto comes with remediation to apply and retry',
        body: SelfCorrectRequestSchema,
        response: { 200: SelfCorrectClearedSchema, ...ERROR_RESPONSES, 403: SelfCorrectVetoSchema },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const body = request.body as SelfCorrectRequest;
      const agent = await agentFor(cloud, caller.tenantId, caller.keyId, body);
      const a = body.action;
      const call: ToolCall = {
        lobe_name: body.lobe_name ?? agent.lobeName,
        tool_name: a.tool_name,
        arguments: a.arguments,
        ...(a.spend_amount !== undefined ? { spend_amount: a.spend_amount } : {}),
        ...(a.trigger_prompt !== undefined ? { trigger_prompt: a.trigger_prompt } : {}),
        ...(a.region !== undefined ? { region: a.region } : {}),
        ...(a.department !== undefined ? { department: a.department } : {}),
      };
      const decision = await cloud.governor.govern({
        route: 'selfcorrect',
        tenantId: caller.tenantId,
        agent,
        call,
        actionRequest: body,
        nowMs: Date.now(),
      });
      cloud.metrics.decisions.inc({ route: 'selfcorrect', outcome: decision.status });
      reply.header(DECISION_ID_HEADER, decision.decisionId);
      if (decision.approved && decision.governanceToken) {
        return {
          type: 'SERVICE_GOVERNANCE_CLEARED',
          governance_token: decision.governanceToken,
          summary: decision.reason,
        };
      }
      reply.code(403);
      return {
        type: 'SERVICE_GOVERNANCE_VETO',
        summary: decision.reason,
        violations: decision.violations,
        remediation: decision.remediation,
      };
    },
  );
}
