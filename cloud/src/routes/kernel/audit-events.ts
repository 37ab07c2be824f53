/**
 * `GET /api/v1/kernel/audit/events?type=&agentId=&proposalId=&from=&to=&cursor=&limit=` → `{ events,
 * nextCursor? }`: the caller's tenant's audit entries in log order. `from`/`to` are Unix ms (inclusive,
 * exclusive); `cursor` is the `nextCursor` of the previous page.
 */
import {
  AgentReferenceSchema,
  AuditEntrySchema,
  AuditEntryTypeSchema,
  IdentifierSchema,
} from '@pentagate/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { auditAgentFilter } from '../../app/agent-read-scope.js';
import { callerOf } from '../../app/auth.js';
import { ROUTE_SCOPES } from '../../app/scopes.js';
import { auditEvents, MAX_EVENTS_PAGE } from '../../kernel/audit-events.js';
import type { KernelContext } from '../../kernel/kernel-context.js';
import { ERROR_RESPONSES } from '../error-responses.js';

/** Decimal digits, no sign or leading zeros, at most 15 digits (every value is a valid Date and index). */
const DIGITS = '^(0|[1-9][0-9]{0,14})$';
const Digits = Type.String({ pattern: DIGITS, description: 'a non-negative integer' });

const Query = Type.Object(
  {
    type: Type.Optional(AuditEntryTypeSchema),
    // an agent named as on authorize and selfcorrect: its name or id (kernel/agent-reference.ts)
    agentId: Type.Optional(AgentReferenceSchema),
    proposalId: Type.Optional(IdentifierSchema),
    // times, not indexes: the events recorded at or after `from` and at or before `to`
    from: Type.Optional(
      Type.String({ pattern: DIGITS, description: 'Unix time, ms: events recorded at or after it' }),
    ),
    to: Type.Optional(
      Type.String({ pattern: DIGITS, description: 'Unix time, ms: events recorded at or before it' }),
    ),
    cursor: Type.Optional(Digits),
    // Any positive page size: a page holds at most MAX_EVENTS_PAGE events and says where the next begins, so a
    // larger limit is served as that (999 was capped while 1000 was refused).
    limit: Type.Optional(
      Type.String({
        pattern: '^[1-9][0-9]{0,14}$',
        description: `a positive integer; pages hold at most ${MAX_EVENTS_PAGE} events (a larger limit gets ${MAX_EVENTS_PAGE} and nextCursor)`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const AuditEventsPageSchema = Type.Object(
  { events: Type.Array(AuditEntrySchema), nextCursor: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

type QueryText = Partial<
  Record<'type' | 'agentId' | 'proposalId' | 'from' | 'to' | 'cursor' | 'limit', string>
>;

export function registerKernelAuditEvents(app: FastifyInstance, k: KernelContext): void {
  app.get(
    '/api/v1/kernel/audit/events',
    {
      config: { scopes: ROUTE_SCOPES.proofs },
      schema: {
        summary: "The tenant's audit events (filtered, cursor-paginated), each with its log index",
        querystring: Query,
        response: { 200: AuditEventsPageSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const q = request.query as QueryText;
      const n = (s: string | undefined) => (s === undefined ? undefined : Number(s));
      const limit = Math.min(n(q.limit) ?? 100, MAX_EVENTS_PAGE);
      const caller = callerOf(request);
      const agentId = await auditAgentFilter(k.cloud.store, caller, q.agentId, '/agentId');
      return auditEvents(k, caller.tenantId, {
        ...(q.type !== undefined ? { type: q.type } : {}),
        ...(agentId !== undefined ? { agentId } : {}),
        ...(q.proposalId !== undefined ? { proposalId: q.proposalId } : {}),
        ...(q.from !== undefined ? { fromMs: n(q.from)! } : {}),
        ...(q.to !== undefined ? { toMs: n(q.to)! } : {}),
        ...(q.cursor !== undefined ? { cursor: n(q.cursor)! } : {}),
        limit,
      });
    },
  );
}
