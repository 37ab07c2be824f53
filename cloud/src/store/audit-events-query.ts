/**
 * The audit-event filter (`GET /api/v1/kernel/audit/events`) as SQL, one builder per dialect over one list of
 * filters, so both stores ask the same question. Every filter the console offers is served by an index of
 * kernel-schema.ts: on SQLite an expression index, whose expressions the queries use exactly, so the planner
 * can match them; on PostgreSQL an index on the column that holds the field (AUDIT_FILTER_COLUMNS):
 *
 * - tenant (and type): one index range read in `idx` order, stopping at the page's size;
 * - proposal or agent: each matches either of two fields (proposalId or decisionId; actor or data.agentId),
 *   and an OR of two fields cannot be read in `idx` order from one index. So the page is the union of two
 *   pages, each an ordered range read of one field's index with every other filter applied, then cut to
 *   the page's size again: the first n of A ∪ B are among the first n of A and the first n of B. Each
 *   arm stops after n matches; no plan reads all of an agent's entries to serve one page.
 *
 * The remaining filters (time, cursor, the other of agent and proposal) narrow the range being read.
 */
import type { AuditEventQuery } from './kernel-store.js';

export interface SqlQuery {
  sql: string;
  params: unknown[];
}

interface Dialect {
  /** The text of a JSON path of the entry, e.g. ['data', 'agentId']. */
  field(path: readonly string[]): string;
  /** The placeholder for the next parameter (1-based position). */
  mark(position: number): string;
}

/** The two fields a proposal or agent filter matches (AuditEventQuery); the first one given drives the arms. */
const EITHER_FIELD: readonly {
  filter: 'proposalId' | 'agentId';
  paths: readonly [readonly string[], readonly string[]];
}[] = [
  {
    filter: 'proposalId',
    paths: [
      ['data', 'proposalId'],
      ['data', 'decisionId'],
    ],
  },
  { filter: 'agentId', paths: [['actor'], ['data', 'agentId']] },
];

function auditEventsQuery(q: AuditEventQuery, d: Dialect): SqlQuery {
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return d.mark(params.length);
  };
  const order = `ORDER BY idx${q.newestFirst ? ' DESC' : ''}`;
  /** The WHERE clause of one read; `only`: the one field of the driving filter this arm matches. */
  const where = (only?: readonly string[]): string => {
    const terms = [`${d.field(['tenantId'])} = ${p(q.tenantId)}`];
    // Bounds only when given, and two as one BETWEEN: with `idx > ? AND idx < ?` SQLite's planner left the
    // type index for the tenant's (reading every entry of the tenant in the range to find one type's).
    const lowest = q.afterIndex !== undefined ? q.afterIndex + 1 : undefined;
    const highest = q.beforeIndex !== undefined ? q.beforeIndex - 1 : undefined;
    if (lowest !== undefined && highest !== undefined)
      terms.push(`idx BETWEEN ${p(lowest)} AND ${p(highest)}`);
    else if (lowest !== undefined) terms.push(`idx >= ${p(lowest)}`);
    else if (highest !== undefined) terms.push(`idx <= ${p(highest)}`);
    if (q.type !== undefined) terms.push(`${d.field(['type'])} = ${p(q.type)}`);
    for (const { filter, paths } of EITHER_FIELD) {
      const value = q[filter];
      if (value === undefined) continue;
      if (only !== undefined && paths.includes(only)) terms.push(`${d.field(only)} = ${p(value)}`);
      else terms.push(`(${paths.map((path) => `${d.field(path)} = ${p(value)}`).join(' OR ')})`);
    }
    if (q.fromIso !== undefined) terms.push(`${d.field(['at'])} >= ${p(q.fromIso)}`);
    if (q.toIso !== undefined) terms.push(`${d.field(['at'])} < ${p(q.toIso)}`);
    return terms.join(' AND ');
  };
  const driving = EITHER_FIELD.find(({ filter }) => q[filter] !== undefined);
  if (driving === undefined) {
    return { sql: `SELECT * FROM audit_log WHERE ${where()} ${order} LIMIT ${p(q.limit)}`, params };
  }
  // Each arm is a subquery (SQLite allows ORDER BY and LIMIT in a compound's arms only there), with an
  // alias (PostgreSQL before 16 requires one).
  const arms = driving.paths.map(
    (path, i) =>
      `SELECT * FROM (SELECT * FROM audit_log WHERE ${where(path)} ${order} LIMIT ${p(q.limit)}) AS arm${i}`,
  );
  return { sql: `${arms.join(' UNION ')} ${order} LIMIT ${p(q.limit)}`, params };
}

/** A JSON path of the entry as SQLite text: the expression of the SQLite audit indexes (kernel-schema.ts). */
export function sqliteAuditField(path: readonly string[]): string {
  return `json_extract(entry, '$.${path.join('.')}')`;
}

/**
 * The entry fields the console filters on by index, and the column of audit_log that holds each on
 * PostgreSQL. There an expression index parsed the ~4 KB entry as jsonb once per expression (ten times
 * per append for the six indexes, ~0.3–0.5 ms of the server's time, under the audit_head lock every
 * replica's batch waits on); a trigger now parses it once and fills these columns
 * (audit/postgres-audit-columns.ts). SQLite's json_extract indexes cost no more than columns would.
 */
export const AUDIT_FILTER_COLUMNS: readonly { path: readonly string[]; column: string }[] = [
  { path: ['tenantId'], column: 'tenant_id' },
  { path: ['type'], column: 'entry_type' },
  { path: ['actor'], column: 'actor' },
  { path: ['data', 'agentId'], column: 'data_agent_id' },
  { path: ['data', 'proposalId'], column: 'data_proposal_id' },
  { path: ['data', 'decisionId'], column: 'data_decision_id' },
];

/**
 * A JSON path of a PostgreSQL entry as text, parsed from `entry` (`e` names the parsed jsonb when the
 * caller parsed it once itself): the expression of the first PostgreSQL audit indexes, and of the filters
 * that have no column (time).
 */
export function postgresAuditExpression(path: readonly string[], e = '(entry::jsonb)'): string {
  return path.length === 1 ? `(${e}->>'${path[0]}')` : `(${e}#>>'{${path.join(',')}}')`;
}

/** A JSON path of the entry as PostgreSQL text: its column when it has one, else parsed from the entry. */
export function postgresAuditField(path: readonly string[]): string {
  const key = path.join('.');
  return AUDIT_FILTER_COLUMNS.find((c) => c.path.join('.') === key)?.column ?? postgresAuditExpression(path);
}

/** The fields a proposal or agent filter reads, each with an index of its own (kernel-schema.ts). */
export const EITHER_FIELD_PATHS: readonly (readonly string[])[] = EITHER_FIELD.flatMap((f) => f.paths);

export function sqliteAuditEventsQuery(q: AuditEventQuery): SqlQuery {
  return auditEventsQuery(q, { field: sqliteAuditField, mark: () => '?' });
}

export function postgresAuditEventsQuery(q: AuditEventQuery): SqlQuery {
  return auditEventsQuery(q, { field: postgresAuditField, mark: (n) => `$${n}` });
}
