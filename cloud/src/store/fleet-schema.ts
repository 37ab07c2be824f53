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

export const SQLITE_FLEET_MIGRATIONS: readonly FleetMigration[] = [{ version: 1, sql: TABLES('INTEGER') }];
export const POSTGRES_FLEET_MIGRATIONS: readonly FleetMigration[] = [{ version: 1, sql: TABLES('BIGINT') }];

export const FLEET_MIGRATIONS_TABLE =
  'CREATE TABLE IF NOT EXISTS fleet_schema_migrations (version INTEGER PRIMARY KEY, applied_at_ms BIGINT NOT NULL)';

/** Column order of fleet_robots inserts. */
export const ROBOT_COLUMNS =
  'tenant_id, robot_id, edge_key_id, command_kid, profile_digest, firmware_manifests, created_at_ms, retired_at_ms';
