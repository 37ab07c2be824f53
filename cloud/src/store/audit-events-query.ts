/**
 * The audit-event filter (`GET /api/v1/kernel/audit/events`) as SQL, one builder per dialect over one list of
 * filters, so both stores ask the same question. The tenant and type filters use exactly the expressions of
 * the audit indexes (kernel-schema.ts), so a tenant's page is an index range read, not a scan of the log;
 * the other filters (actor, proposal, time) narrow that range.
 */
import type { AuditEventQuery } from './kernel-store.js';

export interface SqlQuery {
  sql: string;
  params: unknown[];
}

interface Dialect {
  /** The text of a JSON path of the entry, e.g. ['data', 'agentId']. */
  field(path: string[]): string;
  /** The placeholder for the next parameter (1-based position). */
  mark(position: number): string;
}

function auditEventsQuery(q: AuditEventQuery, d: Dialect): SqlQuery {
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return d.mark(params.length);
  };
  const where = [`${d.field(['tenantId'])} = ${p(q.tenantId)}`, `idx > ${p(q.afterIndex ?? -1)}`];
  if (q.beforeIndex !== undefined) where.push(`idx < ${p(q.beforeIndex)}`);
  if (q.type !== undefined) where.push(`${d.field(['type'])} = ${p(q.type)}`);
  if (q.agentId !== undefined) {
    const a = p(q.agentId);
    const b = p(q.agentId);
    where.push(`(${d.field(['actor'])} = ${a} OR ${d.field(['data', 'agentId'])} = ${b})`);
  }
  if (q.proposalId !== undefined) {
    const a = p(q.proposalId);
    const b = p(q.proposalId);
    where.push(`(${d.field(['data', 'proposalId'])} = ${a} OR ${d.field(['data', 'decisionId'])} = ${b})`);
  }
  if (q.fromIso !== undefined) where.push(`${d.field(['at'])} >= ${p(q.fromIso)}`);
  if (q.toIso !== undefined) where.push(`${d.field(['at'])} < ${p(q.toIso)}`);
  return {
    sql: `SELECT * FROM audit_log WHERE ${where.join(' AND ')} ORDER BY idx${q.newestFirst ? ' DESC' : ''} LIMIT ${p(q.limit)}`,
    params,
  };
}

export function sqliteAuditEventsQuery(q: AuditEventQuery): SqlQuery {
  return auditEventsQuery(q, {
    field: (path) => `json_extract(entry, '$.${path.join('.')}')`,
    mark: () => '?',
  });
}

export function postgresAuditEventsQuery(q: AuditEventQuery): SqlQuery {
  return auditEventsQuery(q, {
    field: (path) =>
      path.length === 1 ? `((entry::jsonb)->>'${path[0]}')` : `((entry::jsonb)#>>'{${path.join(',')}}')`,
    mark: (n) => `$${n}`,
  });
}
