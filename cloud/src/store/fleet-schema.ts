/**
 * The fleet's tables, in both dialects, migrated by the fleet store under its own version table
 * (`fleet_schema_migrations`), beside the platform's and the kernel's.
 */
export interface FleetMigration {
  version: number;
  sql: string;
}

const TABLES = (bigint: string) => `
CREATE TABLE IF NOT EXISTS fleet_robots (
  tenant_id TEXT NOT NULL, robot_id TEXT NOT NULL, edge_key_id TEXT NOT NULL UNIQUE, command_kid TEXT NOT NULL,
  profile_digest TEXT NOT NULL, firmware_manifests TEXT NOT NULL, created_at_ms ${bigint} NOT NULL,
  retired_at_ms ${bigint}, PRIMARY KEY (tenant_id, robot_id));
CREATE TABLE IF NOT EXISTS fleet_operator_keys (
  tenant_id TEXT NOT NULL, operator_id TEXT NOT NULL, kid TEXT NOT NULL, public_key TEXT NOT NULL,
  created_at_ms ${bigint} NOT NULL, retired_at_ms ${bigint}, PRIMARY KEY (tenant_id, operator_id));
CREATE TABLE IF NOT EXISTS fleet_edge_chains (
  tenant_id TEXT NOT NULL, robot_id TEXT NOT NULL, acknowledged ${bigint} NOT NULL, head_digest TEXT NOT NULL,
  PRIMARY KEY (tenant_id, robot_id));
CREATE TABLE IF NOT EXISTS fleet_edge_records (
  tenant_id TEXT NOT NULL, robot_id TEXT NOT NULL, record_index ${bigint} NOT NULL, record_digest TEXT NOT NULL,
  audit_index ${bigint} NOT NULL, PRIMARY KEY (tenant_id, robot_id, record_index));
`;

/**
 * Robot consent requests waiting for an operator (the consent relay), one row per (robot, intent digest):
 * `waiting` until an operator's token is stored (`granted`), `delivered` once the edge has taken it. A
 * waiting row past its deadline is expired by reading it (the edge has vetoed the intent by then).
 */
const CONSENT_REQUESTS = (bigint: string) => `
CREATE TABLE IF NOT EXISTS fleet_consent_requests (
  tenant_id TEXT NOT NULL, robot_id TEXT NOT NULL, intent_digest TEXT NOT NULL, request TEXT NOT NULL,
  state TEXT NOT NULL, deadline_ms ${bigint} NOT NULL, created_at_ms ${bigint} NOT NULL, token TEXT,
  operator_id TEXT, granted_at_ms ${bigint}, delivered_at_ms ${bigint},
  PRIMARY KEY (tenant_id, robot_id, intent_digest));
CREATE INDEX IF NOT EXISTS fleet_consent_requests_by_state ON fleet_consent_requests (tenant_id, state, deadline_ms);
`;

const migrations = (bigint: string): readonly FleetMigration[] => [
  { version: 1, sql: TABLES(bigint) },
  { version: 2, sql: CONSENT_REQUESTS(bigint) },
];

export const SQLITE_FLEET_MIGRATIONS = migrations('INTEGER');
export const POSTGRES_FLEET_MIGRATIONS = migrations('BIGINT');

export const FLEET_MIGRATIONS_TABLE =
  'CREATE TABLE IF NOT EXISTS fleet_schema_migrations (version INTEGER PRIMARY KEY, applied_at_ms BIGINT NOT NULL)';

/** Column order of fleet_robots inserts. */
export const ROBOT_COLUMNS =
  'tenant_id, robot_id, edge_key_id, command_kid, profile_digest, firmware_manifests, created_at_ms, retired_at_ms';

/** Column order of fleet_consent_requests inserts. */
export const CONSENT_REQUEST_COLUMNS =
  'tenant_id, robot_id, intent_digest, request, state, deadline_ms, created_at_ms';

/**
 * The upsert tail of a consent request: an identical intent parked again (same digest) after its earlier
 * wait closed — granted, taken, or past its deadline — opens a new wait in the same row; a repeat of a wait
 * still open (an edge that restarted, or never saw the answer) changes nothing. A new park has a later
 * deadline than the one it follows: a replay of the request already served (its deadline unchanged) changes
 * nothing either, where it used to put a finished move back in the queue, clear a grant not yet delivered,
 * and take a second grant. Both dialects.
 */
export const REOPEN_CONSENT_REQUEST = `request = excluded.request, state = excluded.state,
  deadline_ms = excluded.deadline_ms, created_at_ms = excluded.created_at_ms, token = NULL, operator_id = NULL,
  granted_at_ms = NULL, delivered_at_ms = NULL
  WHERE excluded.deadline_ms > fleet_consent_requests.deadline_ms
    AND (fleet_consent_requests.state <> 'waiting' OR fleet_consent_requests.deadline_ms <= excluded.created_at_ms)`;
