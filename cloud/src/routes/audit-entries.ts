/**
 * `GET /api/v1/audit/entries?before=&limit=`: the caller's tenant's own audit entries, newest first, for the
 * console's audit browser. The log is shared by every tenant, so the route walks back from `before` (default:
 * the log's size) through at most SCAN_WINDOW positions and keeps the caller's entries only; `next` is where
 * to continue, or null at the start of the log. An entry is then checked with `/api/v1/audit/inclusion` and
 * `/api/v1/audit/checkpoint`, which carry hashes only.
 */
import { AuditEntrySchema } from '@pentagate/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../app/auth.js';
import type { CloudContext } from '../app/context.js';
import { ROUTE_SCOPES } from '../app/scopes.js';
import { ERROR_RESPONSES } from './error-responses.js';

/** How many log positions one call reads at most, whatever the tenant's share of them. */
export const SCAN_WINDOW = 2000;
const MAX_LIMIT = 200;

const Query = Type.Object(
  {
    before: Type.Optional(Type.String({ pattern: '^(0|[1-9][0-9]{0,15})$' })),
    limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: `1..${MAX_LIMIT}` })),
  },
  { additionalProperties: false },
);

export function registerAuditEntries(app: FastifyInstance, cloud: CloudContext): void {
  app.get(
    '/api/v1/audit/entries',
    {
      config: { scopes: ROUTE_SCOPES.audit },
      schema: {
        summary: "The caller's tenant's audit entries, newest first (a window of the shared log per call)",
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
      const q = request.query as { before?: string; limit?: string };
      const limit = Math.min(Number(q.limit ?? 50), MAX_LIMIT);
      const size = await cloud.audit.catchUp();
      const end = Math.min(q.before === undefined ? size : Number(q.before), size);
      const start = Math.max(0, end - SCAN_WINDOW);
      const records = await cloud.store.auditEntries(start, end);
      const entries = [];
      let next: number | null = start > 0 ? start : null;
      for (let i = records.length - 1; i >= 0; i--) {
        const entry = records[i]!.entry;
        if (entry.tenantId !== tenantId) continue;
        if (entries.length === limit) {
          next = entry.index + 1;
          break;
        }
        entries.push(entry);
      }
      return { entries, next };
    },
  );
}
