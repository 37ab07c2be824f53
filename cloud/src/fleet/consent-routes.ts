/**
 * The consent relay's routes (consent-relay.ts, operator-keys.ts).
 * Edge (scope `edge`, its own robot only):
 *   `POST /api/v1/fleet/robots/:robotId/consent-requests` parks a request in the approvals queue;
 *   `DELETE /api/v1/fleet/robots/:robotId/consent-requests/:intentDigest` says the edge stopped waiting;
 *   `DELETE /api/v1/fleet/robots/:robotId/consent-requests` a starting edge closes all of its robot's;
 *   `GET  /api/v1/fleet/robots/:robotId/consents?waitMs=` takes the granted tokens (long poll);
 *   `GET  /api/v1/fleet/robots/:robotId/operator-keys` the enrolled operator keys the edge trusts.
 * Operators and admins:
 *   `GET  /api/v1/fleet/consent-requests[?robot=]` the waiting robot requests (also in `GET /api/v1/approvals`);
 *   `POST /api/v1/fleet/robots/:robotId/consent-requests/:intentDigest/grant` `{ token }` relays a token the
 *   operator signed with their own key;
 *   `POST /api/v1/fleet/robots/:robotId/consent-requests/:intentDigest/deny` `{ token }` relays a denial
 *   (a statement with decision `deny`), so the edge vetoes the move at once;
 *   `PUT  /api/v1/fleet/operator-key` `{ publicKey[, operatorId] }` enrols the caller's public key (an
 *   operator key enrols for itself, its key id being the operator id; an admin names the operator); an
 *   operator key never replaces an active key of its operator with another (OPERATOR_KEY_ENROLLED).
 * Admins:
 *   `DELETE /api/v1/fleet/operator-key/:operatorId` retires an operator's consent key.
 */
import {
  type ConsentDecision,
  ConsentGrantSchema,
  ConsentRelaySchema,
  type ConsentRequest,
  ConsentRequestSchema,
  IdentifierSchema,
  type RobotConsentItem,
  RobotConsentListSchema,
  RobotIdSchema,
  Sha256HexSchema,
  OperatorKeysSchema,
  ConsentRequestPostedSchema,
  ConsentRequestClosedSchema,
  base64UrlOfBytesSchema,
} from '@pentagate/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../app/auth.js';
import { ApiError } from '../app/errors.js';
import { OpenPerKey } from '../app/open-per-key.js';
import { ROUTE_SCOPES } from '../app/scopes.js';
import { ERROR_RESPONSES } from '../routes/error-responses.js';
import type { ConsentRequestRecord } from '../store/consent-queue.js';
import {
  closeAllConsentRequests,
  closeConsentRequest,
  relayOperatorDecision,
  MAX_CONSENT_WAIT_MS,
  postConsentRequest,
  takeRobotConsents,
} from './consent-relay.js';
import { robotOfCaller } from './edge-ingest.js';
import type { FleetContext } from './fleet-context.js';
import { enrollOperatorKey, operatorTrustedKeys, retireOperatorKey } from './operator-keys.js';

const RobotParams = Type.Object({ robotId: RobotIdSchema }, { additionalProperties: false });
const GrantParams = Type.Object(
  { robotId: RobotIdSchema, intentDigest: Sha256HexSchema },
  { additionalProperties: false },
);

export function robotConsentItem(r: ConsentRequestRecord): RobotConsentItem {
  return {
    robotId: r.robotId,
    intentDigest: r.intentDigest,
    request: r.request,
    createdAt: new Date(r.createdAtMs).toISOString(),
    expiresAt: new Date(r.deadlineMs).toISOString(),
    grantPath: `/api/v1/fleet/robots/${r.robotId}/consent-requests/${r.intentDigest}/grant`,
    denyPath: `/api/v1/fleet/robots/${r.robotId}/consent-requests/${r.intentDigest}/deny`,
  };
}

export async function waitingRobotConsents(f: FleetContext, tenantId: string, robotId?: string) {
  return (await f.store.consents.listWaiting(tenantId, f.nowMs(), robotId)).map(robotConsentItem);
}

/**
 * Consent polls (waitMs > 0) one edge key may hold open at once. An edge keeps one poll open, and a second
 * while it reconnects; each poll holds a socket and re-reads the store every second (consent-relay.ts).
 */
export const MAX_CONSENT_POLLS_PER_KEY = 4;

export function registerConsentRoutes(app: FastifyInstance, f: FleetContext): void {
  const polls = new OpenPerKey();
  app.post(
    '/api/v1/fleet/robots/:robotId/consent-requests',
    {
      config: { scopes: ROUTE_SCOPES.edge },
      schema: {
        summary: 'Park a robot move waiting for operator consent in the approvals queue (idempotent)',
        params: RobotParams,
        body: ConsentRequestSchema,
        response: { 200: ConsentRequestPostedSchema, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const { robotId } = request.params as { robotId: string };
      try {
        return await postConsentRequest(f, callerOf(request), robotId, request.body as ConsentRequest);
      } catch (err) {
        // too many waiting: one closes or passes its deadline within the edge's consent wait
        if (err instanceof ApiError && err.code === 'RATE_LIMITED') reply.header('retry-after', '5');
        throw err;
      }
    },
  );
  app.delete(
    '/api/v1/fleet/robots/:robotId/consent-requests',
    {
      config: { scopes: ROUTE_SCOPES.edge },
      schema: {
        summary:
          "A starting edge takes its robot's waiting moves out of the approvals queue (its waits are gone)",
        params: RobotParams,
        response: {
          200: Type.Object({ closed: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const { robotId } = request.params as { robotId: string };
      return closeAllConsentRequests(f, callerOf(request), robotId);
    },
  );
  app.delete(
    '/api/v1/fleet/robots/:robotId/consent-requests/:intentDigest',
    {
      config: { scopes: ROUTE_SCOPES.edge },
      schema: {
        summary:
          'Take a waiting robot move out of the approvals queue: the edge no longer waits for its consent',
        params: GrantParams,
        response: { 200: ConsentRequestClosedSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { robotId, intentDigest } = request.params as { robotId: string; intentDigest: string };
      return closeConsentRequest(f, callerOf(request), robotId, intentDigest);
    },
  );
  app.get(
    '/api/v1/fleet/robots/:robotId/consents',
    {
      // taking hands each token out once; a HEAD answer has no body, so the tokens it took would be lost
      exposeHeadRoute: false,
      config: { scopes: ROUTE_SCOPES.edge },
      schema: {
        summary: "Take the operator tokens granted for the robot's waiting moves (held open up to waitMs)",
        params: RobotParams,
        querystring: Type.Object(
          {
            waitMs: Type.Optional(
              Type.String({ pattern: '^(0|[1-9][0-9]{0,4})$', description: `0..${MAX_CONSENT_WAIT_MS} ms` }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: ConsentRelaySchema, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const { robotId } = request.params as { robotId: string };
      const { waitMs } = request.query as { waitMs?: string };
      // The response's 'close' before it is sent means the edge hung up (a request's own 'close' fires as
      // soon as its body has been read, which for a GET is at once).
      const gone = new AbortController();
      reply.raw.on('close', () => gone.abort());
      const caller = callerOf(request);
      const wait = Number(waitMs ?? 0);
      if (wait === 0) return { robotId, tokens: await takeRobotConsents(f, caller, robotId, 0, gone.signal) };
      const open = polls.of(caller.keyId);
      if (open >= MAX_CONSENT_POLLS_PER_KEY) {
        reply.header('retry-after', '1');
        throw new ApiError(
          'RATE_LIMITED',
          `this edge key already holds ${open} consent polls open, the most one key may; wait for one to answer`,
        );
      }
      polls.opened(caller.keyId);
      try {
        return { robotId, tokens: await takeRobotConsents(f, caller, robotId, wait, gone.signal) };
      } finally {
        polls.closed(caller.keyId);
      }
    },
  );
  app.get(
    '/api/v1/fleet/robots/:robotId/operator-keys',
    {
      config: { scopes: [...ROUTE_SCOPES.edge, ...ROUTE_SCOPES.fleet] },
      schema: {
        summary: "The tenant's enrolled operator keys, as trust entries (role operator, name = operator id)",
        params: RobotParams,
        response: { 200: OperatorKeysSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { robotId } = request.params as { robotId: string };
      const caller = callerOf(request);
      await robotOfCaller(f, caller, robotId);
      return { keys: await operatorTrustedKeys(f.store, f.cloud.store, caller.tenantId) };
    },
  );
  app.get(
    '/api/v1/fleet/consent-requests',
    {
      config: { scopes: ROUTE_SCOPES.fleet },
      schema: {
        summary: 'Robot moves waiting for operator consent, oldest first',
        querystring: Type.Object({ robot: Type.Optional(RobotIdSchema) }, { additionalProperties: false }),
        response: {
          200: RobotConsentListSchema,
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const { robot } = request.query as { robot?: string };
      return { items: await waitingRobotConsents(f, callerOf(request).tenantId, robot) };
    },
  );
  const decisionRoutes: [ConsentDecision, string][] = [
    ['grant', "Relay an operator's consent token (signed with the operator's own enrolled key) to the robot"],
    [
      'deny',
      'Relay an operator\'s signed denial (decision "deny") to the robot, which vetoes the move at once',
    ],
  ];
  for (const [decision, summary] of decisionRoutes) {
    app.post(
      `/api/v1/fleet/robots/:robotId/consent-requests/:intentDigest/${decision}`,
      {
        config: { scopes: ROUTE_SCOPES.operator },
        schema: {
          summary,
          params: GrantParams,
          body: ConsentGrantSchema,
          response: {
            200: Type.Object(
              {
                robotId: RobotIdSchema,
                intentDigest: Sha256HexSchema,
                operatorId: IdentifierSchema,
                auditIndex: Type.Integer({ minimum: 0 }),
              },
              { additionalProperties: false },
            ),
            ...ERROR_RESPONSES,
            409: ERROR_RESPONSES[403],
          },
        },
      },
      async (request) => {
        const { robotId, intentDigest } = request.params as { robotId: string; intentDigest: string };
        const { token } = request.body as { token: unknown };
        return relayOperatorDecision(f, callerOf(request), robotId, intentDigest, token, decision);
      },
    );
  }
  app.put(
    '/api/v1/fleet/operator-key',
    {
      config: { scopes: ROUTE_SCOPES.operator },
      schema: {
        summary: "Enrol an operator's Ed25519 consent public key (an operator key enrols for itself)",
        body: Type.Object(
          { publicKey: base64UrlOfBytesSchema(32), operatorId: Type.Optional(IdentifierSchema) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object(
            { operatorId: IdentifierSchema, kid: Type.String(), auditIndex: Type.Integer({ minimum: 0 }) },
            { additionalProperties: false },
          ),
          ...ERROR_RESPONSES,
          409: ERROR_RESPONSES[403],
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const body = request.body as { publicKey: string; operatorId?: string };
      const operatorId = body.operatorId ?? caller.keyId;
      if (caller.scope !== 'admin' && operatorId !== caller.keyId) {
        throw new ApiError(
          'SCOPE_FORBIDDEN',
          `an operator key enrols only for itself (${caller.keyId}); an admin key enrols for ${operatorId}`,
        );
      }
      const enrolled = await enrollOperatorKey(
        f.store,
        f.cloud.store,
        {
          tenantId: caller.tenantId,
          operatorId,
          publicKey: body.publicKey,
          actor: caller.keyId,
          authority: caller.scope === 'admin' ? 'admin' : 'self',
        },
        f.nowMs(),
      );
      return { operatorId, kid: enrolled.key.kid, auditIndex: enrolled.auditIndex };
    },
  );
  app.delete(
    '/api/v1/fleet/operator-key/:operatorId',
    {
      // admin only: were an operator's API key enough to retire its consent key, it could retire and then
      // enrol one of its own, the replacement enrollOperatorKey refuses it
      config: { scopes: ROUTE_SCOPES.admin },
      schema: {
        summary: "Retire an operator's consent key (admin): its tokens are refused, edges stop trusting it",
        params: Type.Object({ operatorId: IdentifierSchema }, { additionalProperties: false }),
        response: {
          200: Type.Object(
            { operatorId: IdentifierSchema, kid: Type.String(), auditIndex: Type.Integer({ minimum: 0 }) },
            { additionalProperties: false },
          ),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { operatorId } = request.params as { operatorId: string };
      const retired = await retireOperatorKey(
        f.store,
        f.cloud.store,
        { tenantId: caller.tenantId, operatorId, actor: caller.keyId },
        f.nowMs(),
      );
      if (!retired) {
        throw new ApiError('OPERATOR_KEY_NOT_FOUND', `operator ${operatorId} has no active consent key`);
      }
      return { operatorId, kid: retired.key.kid, auditIndex: retired.auditIndex };
    },
  );
}
