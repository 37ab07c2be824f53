/**
 * The audit log's public face (ARCHITECTURE.md §5): `GET /api/v1/audit/checkpoint` (the latest signed
 * checkpoint as a C2SP signed note, text/plain), `GET /api/v1/audit/inclusion?index=&size=` and
 * `GET /api/v1/audit/consistency?old=&new=` (RFC 6962 proofs as JSON; sizes default to the current size).
 * Proofs carry hashes only, never entries, so they reveal nothing about other tenants.
 */
import { ConsistencyProofSchema, InclusionProofSchema } from '@pentagate/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { CloudContext } from '../app/context.js';
import { ROUTE_SCOPES } from '../app/scopes.js';
import { documentedResponses, ERROR_RESPONSES } from './error-responses.js';

/** A log position in a query string: decimal digits, no sign, no leading zeros, ≤ 2^53 - 1. */
const Position = Type.String({ pattern: '^(0|[1-9][0-9]{0,15})$', description: 'a non-negative integer' });

const InclusionQuery = Type.Object(
  { index: Position, size: Type.Optional(Position) },
  { additionalProperties: false },
);
const ConsistencyQuery = Type.Object(
  { old: Position, new: Type.Optional(Position) },
  { additionalProperties: false },
);

export function registerAuditRoutes(app: FastifyInstance, cloud: CloudContext): void {
  app.get(
    '/api/v1/audit/checkpoint',
    {
      schema: {
        summary: 'The latest signed checkpoint (C2SP signed note)',
        response: { 200: Type.String({ description: 'signed note, text/plain' }), ...ERROR_RESPONSES },
      },
      // the note is served as text/plain, which the OpenAPI document says (a plain 200 schema reads as JSON)
      config: {
        scopes: ROUTE_SCOPES.audit,
        swaggerTransform: documentedResponses({
          200: {
            description: 'the signed note (C2SP signed-note format)',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
        }),
      },
    },
    async (_request, reply) => {
      const checkpoint = await cloud.audit.checkpoint();
      reply.type('text/plain; charset=utf-8');
      return checkpoint.note;
    },
  );
  app.get(
    '/api/v1/audit/inclusion',
    {
      config: { scopes: ROUTE_SCOPES.audit },
      schema: {
        summary: 'RFC 6962 inclusion proof of one entry',
        querystring: InclusionQuery,
        response: { 200: InclusionProofSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const q = request.query as { index: string; size?: string };
      const size = q.size === undefined ? await cloud.audit.catchUp() : Number(q.size);
      return cloud.audit.inclusion(Number(q.index), size);
    },
  );
  app.get(
    '/api/v1/audit/consistency',
    {
      config: { scopes: ROUTE_SCOPES.audit },
      schema: {
        summary: 'RFC 6962 consistency proof between two sizes of the log',
        querystring: ConsistencyQuery,
        response: { 200: ConsistencyProofSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const q = request.query as { old: string; new?: string };
      const newSize = q.new === undefined ? await cloud.audit.catchUp() : Number(q.new);
      return cloud.audit.consistency(Number(q.old), newSize);
    },
  );
}
