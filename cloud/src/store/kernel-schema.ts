/**
 * The kernel's tables, in both dialects. They live beside the platform's tables but are migrated by the
 * kernel store under its own version table (`kernel_schema_migrations`), so the platform's migrations
 * never need to know about them.
 */
import { queueIndexes } from './approvals-queue-query.js';
import {
  EITHER_FIELD_PATHS,
  postgresAuditExpression,
  postgresAuditField,
  sqliteAuditField,
} from './audit-events-query.js';

export interface KernelMigration {
  version: number;
  sql: string;
}

const PROPOSALS = (bigint: string) => `
CREATE TABLE IF NOT EXISTS kernel_proposals (
  tenant_id TEXT NOT NULL, id TEXT NOT NULL, agent_id TEXT NOT NULL, status TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('open', 'approved', 'executed', 'denied', 'vetoed', 'expired', 'superseded')),
  action_type TEXT NOT NULL, action_digest TEXT NOT NULL, idempotency_key TEXT, reservation_id TEXT,
  created_at_ms ${bigint} NOT NULL, expires_at_ms ${bigint} NOT NULL, hold_until_ms ${bigint},
  updated_at_ms ${bigint} NOT NULL, settled_by TEXT,
  PRIMARY KEY (tenant_id, id), UNIQUE (tenant_id, idempotency_key));
CREATE INDEX IF NOT EXISTS kernel_proposals_open ON kernel_proposals(state, expires_at_ms);
CREATE INDEX IF NOT EXISTS kernel_proposals_tenant ON kernel_proposals(tenant_id, state, created_at_ms);
`;

/**
 * `GET /api/v1/kernel/audit/events` (the console's audit browser) reads one tenant's entries, optionally of one
 * type, in index order: served by these expression indexes instead of a scan of the whole log. The queries
 * (sqlite-audit-events.ts, postgres-audit-events.ts) use exactly these expressions, so the planner can match
 * them; cloud/test/store/audit-events-index.test.ts checks the plans.
 */
const SQLITE_AUDIT_INDEXES = `
CREATE INDEX IF NOT EXISTS audit_log_by_tenant ON audit_log (json_extract(entry, '$.tenantId'), idx);
CREATE INDEX IF NOT EXISTS audit_log_by_tenant_type
  ON audit_log (json_extract(entry, '$.tenantId'), json_extract(entry, '$.type'), idx);
`;
const POSTGRES_AUDIT_INDEXES = `
CREATE INDEX IF NOT EXISTS audit_log_by_tenant ON audit_log (((entry::jsonb)->>'tenantId'), idx);
CREATE INDEX IF NOT EXISTS audit_log_by_tenant_type
  ON audit_log (((entry::jsonb)->>'tenantId'), ((entry::jsonb)->>'type'), idx);
`;

/**
 * The agent and proposal filters each match one of two fields (audit-events-query.ts): one index per field,
 * so each arm of the query is an ordered range read. Partial: most entries carry only some of the fields,
 * and `field = value` implies the field is not null, which both planners prove.
 */
function filterFieldIndexes(field: (path: readonly string[]) => string): string {
  return EITHER_FIELD_PATHS.map(
    (path) =>
      `CREATE INDEX IF NOT EXISTS ${filterFieldIndexName(path)}
  ON audit_log (${field(['tenantId'])}, ${field(path)}, idx) WHERE ${field(path)} IS NOT NULL;`,
  ).join('\n');
}

/** The index of one agent or proposal field (filterFieldIndexes). */
function filterFieldIndexName(path: readonly string[]): string {
  return `audit_log_by_tenant_${path.join('_').toLowerCase()}`;
}

/**
 * PostgreSQL's audit indexes again, on the filter columns (audit-events-query.ts, AUDIT_FILTER_COLUMNS) in
 * place of the expressions: the same names, so the same plans, without parsing the entry once per index at
 * every append. The platform's migration 8 added and filled the columns.
 */
const POSTGRES_AUDIT_INDEXES_ON_COLUMNS = `
DROP INDEX IF EXISTS audit_log_by_tenant;
DROP INDEX IF EXISTS audit_log_by_tenant_type;
${EITHER_FIELD_PATHS.map((path) => `DROP INDEX IF EXISTS ${filterFieldIndexName(path)};`).join('\n')}
CREATE INDEX audit_log_by_tenant ON audit_log (${postgresAuditField(['tenantId'])}, idx);
CREATE INDEX audit_log_by_tenant_type ON audit_log (${postgresAuditField(['tenantId'])}, ${postgresAuditField(['type'])}, idx);
${filterFieldIndexes(postgresAuditField)}
`;

/** The API key that made each proposal, so that key cannot also approve it (kernel/approvals.ts). */
const PROPOSED_BY = 'ALTER TABLE kernel_proposals ADD COLUMN proposed_by TEXT';

/**
 * The approvals queue's lanes and the per-key count of open proposals (approvals-queue-query.ts): partial
 * indexes of open proposals only. Before, the list was one oldest-first read capped at 500 with no way past it,
 * so a flood of REQUIRE_HUMAN proposals hid a held one until its hold ended and it ran (outside review F4).
 */
const QUEUE_INDEXES = queueIndexes();

export const SQLITE_KERNEL_MIGRATIONS: readonly KernelMigration[] = [
  { version: 1, sql: PROPOSALS('INTEGER') },
  { version: 2, sql: SQLITE_AUDIT_INDEXES },
  { version: 3, sql: filterFieldIndexes(sqliteAuditField) },
  { version: 4, sql: PROPOSED_BY },
  { version: 5, sql: QUEUE_INDEXES },
];
export const POSTGRES_KERNEL_MIGRATIONS: readonly KernelMigration[] = [
  { version: 1, sql: PROPOSALS('BIGINT') },
  { version: 2, sql: POSTGRES_AUDIT_INDEXES },
  { version: 3, sql: filterFieldIndexes(postgresAuditExpression) },
  { version: 4, sql: PROPOSED_BY },
  { version: 5, sql: POSTGRES_AUDIT_INDEXES_ON_COLUMNS },
  { version: 6, sql: QUEUE_INDEXES },
];

export const KERNEL_MIGRATIONS_TABLE =
  'CREATE TABLE IF NOT EXISTS kernel_schema_migrations (version INTEGER PRIMARY KEY, applied_at_ms BIGINT NOT NULL)';
