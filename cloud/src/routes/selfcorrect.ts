/**
 * `POST /api/v1/selfcorrect` (specification §2.5, §4 rules 4–6): `{ action: { agent_id, intent_domain,
 * tool_name, tool_args, confidence } }` → 200 `{ type: SERVICE_GOVERNANCE_CLEARED, governance_token,
 * summary }` or 403 `{ type: SERVICE_GOVERNANCE_VETO, summary, violations, remediation }` (+
 * `violation_details`, `decision_id`, `approval_id`). Each request is a real governed decision through the
 * kernel, like a propose: budget reservation, `decision` audit entry, signed proof and, when cleared, a
 * governance token. An unknown `agent_id` is registered on first contact under `intent_domain` (lobe =
 * agent id), with its `agent.registered` audit entry. An action that needs a human waits in the approvals
 * queue (the veto names it); once approved it is executed with the kernel's execute. A key bound to
 * another agent is refused (403 AGENT_FORBIDDEN) before anything is registered or reserved.
 */
import {
  type SelfCorrectRequest,
  SelfCorrectClearedSchema,
  SelfCorrectRequestSchema,
  SelfCorrectVetoSchema,
} from '@pentagate/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { callerOf } from '../app/auth.js';
import { ApiError } from '../app/errors.js';
import { headerFieldCount } from '../app/header-fields.js';
import { ROUTE_SCOPES } from '../app/scopes.js';
import { selfCorrectRequest } from '../decisions/agent-requests.js';
import { governAgentCall } from '../decisions/agent-verdict.js';
import { meetAgent, requestForMet } from '../kernel/kernel-agent.js';
import type { KernelContext } from '../kernel/kernel-context.js';
import { DECISION_ID_HEADER } from './agentgate-propose.js';
import { documentedResponses, ERROR_RESPONSES } from './error-responses.js';
import { SelfCorrectForbiddenSchema } from './selfcorrect-responses.js';

/** The version recorded for agents registered by first contact on this route. */
export const FIRST_CONTACT_VERSION = 'selfcorrect';

/**
 * The optional `Idempotency-Key` header (draft-ietf-httpapi-idempotency-key-header §2): the specification's
 * self-correcting record carries no call id, so without it a client that retries after a lost answer is
 * decided again, and a spend is reserved twice. With it, a repeat of the same body gets the first decision,
 * and the same key on another body is refused 409 IDEMPOTENCY_CONFLICT, as `tool_call.id` on propose.
 * At most 256 visible ASCII characters, sent once.
 */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,256}$/;

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const count = headerFieldCount(request.raw.rawHeaders, 'idempotency-key');
  if (count === 0) return undefined;
  const value = request.headers['idempotency-key'];
  if (count > 1 || typeof value !== 'string' || !IDEMPOTENCY_KEY.test(value)) {
    throw new ApiError(
      'INVALID_HEADERS',
      'Idempotency-Key: expected one field of 1 to 256 visible ASCII characters (no spaces)',
    );
  }
  return value;
}

export function registerSelfCorrect(app: FastifyInstance, k: KernelContext): void {
  app.post(
    '/api/v1/selfcorrect',
    {
      config: {
        scopes: ROUTE_SCOPES.agent,
        // a 403 refusal (a key of another scope, or bound to another agent) is a brief too, with the error
        // body beside it (app/veto-brief-errors.ts)
        vetoBriefErrors: true,
        // The document only: a 403 is the veto brief, or the brief of a refusal with its error body
        // (routes/selfcorrect-responses.ts); the serializer keeps the veto schema the handler sends.
        swaggerTransform: documentedResponses({
          403: SelfCorrectForbiddenSchema,
        }),
      },
      schema: {
        summary:
          'Ask whether an action is cleared (a governed decision); a veto is a brief with violations and remediation',
        body: SelfCorrectRequestSchema,
        response: { 200: SelfCorrectClearedSchema, ...ERROR_RESPONSES, 403: SelfCorrectVetoSchema },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const body = request.body as SelfCorrectRequest;
      const idempotencyKey = idempotencyKeyOf(request);
      // an agent met for the first time is registered only once this call is admitted (kernel-agent.ts)
      const met = await meetAgent(
        k,
        caller,
        {
          agentId: body.action.agent_id,
          domain: body.action.intent_domain,
          version: FIRST_CONTACT_VERSION,
          registeredBy: 'selfcorrect',
          field: '/action/agent_id',
        },
        k.nowMs(),
      );
      const verdict = await governAgentCall(
        k,
        caller,
        requestForMet(met, (agent) => selfCorrectRequest(agent, body, idempotencyKey)),
      );
      reply.header(DECISION_ID_HEADER, verdict.decisionId);
      if (verdict.approved && verdict.governanceToken) {
        return {
          type: 'SERVICE_GOVERNANCE_CLEARED',
          governance_token: verdict.governanceToken,
          summary: verdict.reason,
          decision_id: verdict.decisionId,
        };
      }
      reply.code(403);
      const brief = verdict.tiers.tier1.jurisdiction.defenceBrief;
      return {
        type: 'SERVICE_GOVERNANCE_VETO',
        summary: verdict.reason,
        violations: verdict.violations.map((v) => v.message),
        remediation: verdict.remediation || 'do not run this action; read violations',
        violation_details: verdict.violations,
        decision_id: verdict.decisionId,
        ...(verdict.approvalId ? { approval_id: verdict.approvalId } : {}),
        ...(brief ? { defence_brief: brief } : {}),
      };
    },
  );
}
