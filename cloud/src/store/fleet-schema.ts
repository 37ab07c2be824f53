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

/**
 * The last signed command of each robot's stored chain (seq, and the last epoch a command carried), kept
 * with the chain head so an upload's commands are checked against it under the chain lock without reading
 * the records back (fleet-chain.ts). Chains stored before this migration are filled from their records'
 * audit entries (`data.record.verdict`), the same history the offline verifier steps through; `field`
 * reads a number at a JSON path of an audit entry's text in the dialect.
 */
const LAST_COMMAND = (bigint: string, field: (path: readonly string[]) => string) => {
  const seq = field(['data', 'record', 'verdict', 'commandSeq']);
  const epoch = field(['data', 'record', 'verdict', 'commandEpoch']);
  const last = (value: string, where: string) => `(SELECT ${value} FROM fleet_edge_records r
    JOIN audit_log a ON a.idx = r.audit_index
    WHERE r.tenant_id = fleet_edge_chains.tenant_id AND r.robot_id = fleet_edge_chains.robot_id AND ${where}
    ORDER BY r.record_index DESC LIMIT 1)`;
  return `
ALTER TABLE fleet_edge_chains ADD COLUMN last_command_seq ${bigint};
ALTER TABLE fleet_edge_chains ADD COLUMN last_command_epoch ${bigint};
UPDATE fleet_edge_chains SET
  last_command_seq = ${last(seq, `${seq} IS NOT NULL`)},
  last_command_epoch = ${last(epoch, `${seq} IS NOT NULL AND ${epoch} IS NOT NULL`)};
`;
};

const migrations = (
  bigint: string,
  field: (path: readonly string[]) => string,
): readonly FleetMigration[] => [
  { version: 1, sql: TABLES(bigint) },
  { version: 2, sql: CONSENT_REQUESTS(bigint) },
  { version: 3, sql: LAST_COMMAND(bigint, field) },
];

export const SQLITE_FLEET_MIGRATIONS = migrations(
  'INTEGER',
  (path) => `json_extract(a.entry, '$.${path.join('.')}')`,
);
export const POSTGRES_FLEET_MIGRATIONS = migrations(
  'BIGINT',
  (path) => `(a.entry::jsonb #>> '{${path.join(',')}}')::bigint`,
);

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
