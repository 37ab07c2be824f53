/**
 * The fleet routes. Edge (scope `edge`, for the robot its key is bound to):
 * `POST /api/v1/fleet/robots/:robotId/records` ships a batch of outbox records and answers the chain
 * acknowledgement; `GET /api/v1/fleet/robots/:robotId/ack` says where to resume. Operators, auditors,
 * admins: `GET /api/v1/fleet/robots` (the registry, never keys) and `GET /api/v1/fleet/live[?robot=ID]`
 * (Server-Sent Events: verdict summaries and chain alarms as edges ship them).
 */
import {
  EdgeChainAckSchema,
  EdgeRecordBatchSchema,
  type EdgeRecordBatch,
  RobotIdSchema,
  Sha256HexSchema,
} from '@pentagate/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { callerOf, stillAuthenticated } from '../app/auth.js';
import { ROUTE_SCOPES } from '../app/scopes.js';
import { ERROR_RESPONSES } from '../routes/error-responses.js';
import { edgeChainAck, ingestEdgeRecords } from './edge-ingest.js';
import type { FleetContext } from './fleet-context.js';
import { streamLiveEvents } from './live-stream.js';

const RobotParams = Type.Object({ robotId: RobotIdSchema }, { additionalProperties: false });
const LiveQuery = Type.Object({ robot: Type.Optional(RobotIdSchema) }, { additionalProperties: false });

const RobotSchema = Type.Object(
  {
    robotId: RobotIdSchema,
    edgeKeyId: Type.String(),
    commandKid: Type.String(),
    profileDigest: Sha256HexSchema,
    firmwareManifests: Type.Integer({ minimum: 0, description: 'how many manifests are registered' }),
    createdAt: Type.String(),
    retiredAt: Type.Union([Type.String(), Type.Null()]),
    acknowledged: Type.Integer({ minimum: 0, description: 'edge records the cloud holds' }),
  },
  { additionalProperties: false },
);

const iso = (ms: number) => new Date(ms).toISOString();

export function registerFleetRoutes(app: FastifyInstance, f: FleetContext): void {
  app.post(
    '/api/v1/fleet/robots/:robotId/records',
    {
      config: { scopes: ROUTE_SCOPES.edge },
      schema: {
        summary: "Ship a batch of the robot's audit outbox records (idempotent by index and digest)",
        params: RobotParams,
        body: EdgeRecordBatchSchema,
        response: { 200: EdgeChainAckSchema, ...ERROR_RESPONSES, 409: ERROR_RESPONSES[403] },
      },
    },
    async (request) => {
      const { robotId } = request.params as { robotId: string };
      return ingestEdgeRecords(f, callerOf(request), robotId, (request.body as EdgeRecordBatch).records);
    },
  );
  app.get(
    '/api/v1/fleet/robots/:robotId/ack',
    {
      config: { scopes: [...ROUTE_SCOPES.edge, ...ROUTE_SCOPES.fleet] },
      schema: {
        summary: "How much of the robot's audit chain the cloud holds (where the edge resumes)",
        params: RobotParams,
        response: { 200: EdgeChainAckSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { robotId } = request.params as { robotId: string };
      return edgeChainAck(f, callerOf(request), robotId);
    },
  );
  app.get(
    '/api/v1/fleet/robots',
    {
      config: { scopes: ROUTE_SCOPES.fleet },
      schema: {
        summary: "The tenant's robots (registry), with how many edge records each has shipped",
        response: { 200: Type.Object({ robots: Type.Array(RobotSchema) }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const tenantId = callerOf(request).tenantId;
      const robots = await f.store.listRobots(tenantId);
      return {
        robots: await Promise.all(
          robots.map(async (r) => ({
            robotId: r.robotId,
            edgeKeyId: r.edgeKeyId,
            commandKid: r.commandKid,
            profileDigest: r.profileDigest,
            firmwareManifests: r.firmwareManifests.length,
            createdAt: iso(r.createdAtMs),
            retiredAt: r.retiredAtMs === null ? null : iso(r.retiredAtMs),
            acknowledged: (await f.store.chainState(tenantId, r.robotId)).acknowledged,
          })),
        ),
      };
    },
  );
  app.get(
    '/api/v1/fleet/live',
    {
      // a stream never ends, so HEAD (headers, then the end) could never be answered: it held a stream open
      exposeHeadRoute: false,
      config: { scopes: ROUTE_SCOPES.fleet },
      schema: {
        summary: 'Server-Sent Events: verdict summaries and chain alarms of the tenant (or one robot)',
        querystring: LiveQuery,
      },
    },
    async (request, reply) => {
      const { robot } = request.query as { robot?: string };
      const caller = callerOf(request);
      streamLiveEvents(f.live, caller.tenantId, robot, request, reply, {
        keyId: caller.keyId,
        stillValid: () => stillAuthenticated(request, f.cloud.store),
        everyMs: f.liveKeyCheckMs,
      });
    },
  );
}
