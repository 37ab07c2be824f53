/**
 * The tenant's audit events for the client (`getAuditEvents`): filters by type, agent, proposal and time,
 * cursor-paginated in log order. Each event is the audit entry itself, `index` included, so its inclusion
 * proof can be fetched from `/api/v1/audit/inclusion?index=` and checked against a signed checkpoint.
 * The cursor is the index of the last event returned; the next page starts after it.
 */
import type { AuditEntry } from '@pentagate/protocol';
import { readAuditPage } from '../audit/audit-page.js';
import type { KernelContext } from './kernel-context.js';

export const DEFAULT_EVENTS_PAGE = 100;
export const MAX_EVENTS_PAGE = 500;

export interface AuditEventsRequest {
  type?: string;
  agentId?: string;
  proposalId?: string;
  /** Unix ms, inclusive. */
  fromMs?: number;
  /** Unix ms, exclusive. */
  toMs?: number;
  cursor?: number;
  limit?: number;
}

export interface AuditEventsPage {
  events: AuditEntry[];
  /** Present when more events may follow: pass it as `cursor`. */
  nextCursor?: string;
}

export async function auditEvents(
  k: KernelContext,
  tenantId: string,
  q: AuditEventsRequest,
): Promise<AuditEventsPage> {
  const limit = q.limit ?? DEFAULT_EVENTS_PAGE;
  const { entries: events, more } = await readAuditPage(k.store, {
    tenantId,
    ...(q.type !== undefined ? { type: q.type } : {}),
    ...(q.agentId !== undefined ? { agentId: q.agentId } : {}),
    ...(q.proposalId !== undefined ? { proposalId: q.proposalId } : {}),
    ...(q.fromMs !== undefined ? { fromIso: new Date(q.fromMs).toISOString() } : {}),
    ...(q.toMs !== undefined ? { toIso: new Date(q.toMs).toISOString() } : {}),
    ...(q.cursor !== undefined ? { afterIndex: q.cursor } : {}),
    limit,
  });
  const last = events[events.length - 1];
  // a page cut by its bytes (audit-page.ts) continues like a full one
  const cut = more || events.length === limit;
  return { events, ...(cut && last ? { nextCursor: String(last.index) } : {}) };
}
