/**
 * `GET /api/v1/audit/entries?before=&limit=&type=&agentId=&proposalId=`: the caller's tenant's own audit
 * entries, newest first, for the console's audit browser; optionally only one type, one agent's (its actor or
 * `data.agentId`) or one proposal's (`data.proposalId` or `data.decisionId`), the same filters as
 * `GET /api/v1/kernel/audit/events`, each read through its own index (audit-events-query.ts). The log is shared by every tenant; the entries are read through the tenant's
 * audit index (kernel-schema.ts), so a call reads the caller's entries and no other tenant's — scanning
 * the shared log instead made each call load up to 2,000 entries of whoever wrote last (an edge's entries
 * can be ~1 MB each: seconds of event loop and gigabytes of memory per call, for every tenant). `next` is
 * where to continue, or null when no older entry of the tenant is left. An entry is then checked with
 * `/api/v1/audit/inclusion` and `/api/v1/audit/checkpoint`, which carry hashes only.
 */
import {
  AgentReferenceSchema,
  AuditEntrySchema,
  AuditEntryTypeSchema,
  IdentifierSchema,
} from '@pentagate/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../app/auth.js';
import { readAuditPage } from '../audit/audit-page.js';
import { ROUTE_SCOPES } from '../app/scopes.js';
import { agentRecordId } from '../kernel/agent-reference.js';
import type { KernelContext } from '../kernel/kernel-context.js';
import { ERROR_RESPONSES } from './error-responses.js';

const MAX_LIMIT = 200;

const Query = Type.Object(
  {
    before: Type.Optional(Type.String({ pattern: '^(0|[1-9][0-9]{0,15})$' })),
    limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: `1..${MAX_LIMIT}` })),
    type: Type.Optional(AuditEntryTypeSchema),
    // an agent named as on authorize and selfcorrect: its name or id (kernel/agent-reference.ts)
    agentId: Type.Optional(AgentReferenceSchema),
    proposalId: Type.Optional(IdentifierSchema),
  },
  { additionalProperties: false },
);

export function registerAuditEntries(app: FastifyInstance, k: KernelContext): void {
  app.get(
    '/api/v1/audit/entries',
    {
      config: { scopes: ROUTE_SCOPES.audit },
      schema: {
        summary: "The caller's tenant's audit entries, newest first",
        querystring: Query,
        response: {
          200: Type.Object(
            {
              entries: Type.Array(AuditEntrySchema),
              next: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
            },
            { additionalProperties: false },
          ),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const { tenantId } = callerOf(request);
      const q = request.query as Partial<
        Record<'before' | 'limit' | 'type' | 'agentId' | 'proposalId', string>
      >;
      const limit = Math.min(Number(q.limit ?? 50), MAX_LIMIT);
      // never past the durable size the checkpoints cover, so every entry listed can be proven
      const size = await k.cloud.audit.catchUp();
      const end = Math.min(q.before === undefined ? size : Number(q.before), size);
      const { entries, more } = await readAuditPage(k.store, {
        tenantId,
        ...(q.type !== undefined ? { type: q.type } : {}),
        ...(q.agentId !== undefined ? { agentId: agentRecordId(q.agentId) } : {}),
        ...(q.proposalId !== undefined ? { proposalId: q.proposalId } : {}),
        beforeIndex: end,
        newestFirst: true,
        limit,
      });
      const next = more ? entries[entries.length - 1]!.index : null;
      return { entries, next };
    },
  );
}
