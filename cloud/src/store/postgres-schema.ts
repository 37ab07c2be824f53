/**
 * The PostgreSQL tables: the same shape as sqlite-schema.ts, with two additions for many writers —
 * `audit_head` (one row whose lock orders audit appends across replicas) and `budget_accounts` (one row per
 * agent whose lock serialises budget reservations).
 */
export const POSTGRES_MIGRATIONS: readonly { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
CREATE TABLE tenants (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at_ms BIGINT NOT NULL);
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL REFERENCES tenants(id), scope TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE, created_at_ms BIGINT NOT NULL, revoked_at_ms BIGINT);
CREATE INDEX api_keys_tenant ON api_keys(tenant_id);
CREATE TABLE agents (
  id TEXT NOT NULL, tenant_id TEXT NOT NULL REFERENCES tenants(id), name TEXT NOT NULL, version TEXT NOT NULL,
  domain TEXT NOT NULL, lobe_name TEXT NOT NULL, created_at_ms BIGINT NOT NULL, metadata TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id), UNIQUE (tenant_id, name, version), UNIQUE (tenant_id, lobe_name));
CREATE TABLE budget_accounts (tenant_id TEXT NOT NULL, agent_id TEXT NOT NULL, PRIMARY KEY (tenant_id, agent_id));
CREATE TABLE budget_reservations (
  id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, agent_id TEXT NOT NULL, amount DOUBLE PRECISION NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('reserved', 'committed', 'released')), created_at_ms BIGINT NOT NULL,
  decision_id TEXT NOT NULL);
-- covering: the window sums read only this index, never the table
CREATE INDEX budget_reservations_window ON budget_reservations(tenant_id, agent_id, created_at_ms, state, amount);
CREATE TABLE call_history (
  seq BIGSERIAL, decision_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, agent_id TEXT NOT NULL,
  tool_name TEXT NOT NULL, tool_key TEXT NOT NULL, fingerprint TEXT NOT NULL, near_fingerprint TEXT NOT NULL, at_ms BIGINT NOT NULL,
  approved BOOLEAN NOT NULL, violations TEXT NOT NULL);
CREATE INDEX call_history_agent ON call_history(tenant_id, agent_id, at_ms);
CREATE INDEX call_history_fingerprint ON call_history(tenant_id, agent_id, fingerprint, at_ms);
CREATE INDEX call_history_near ON call_history(tenant_id, agent_id, near_fingerprint, at_ms);
CREATE INDEX call_history_denied ON call_history(tenant_id, agent_id, tool_key, approved, at_ms);
CREATE TABLE decisions (
  id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, agent_id TEXT NOT NULL, outcome TEXT NOT NULL,
  approved BOOLEAN NOT NULL, created_at_ms BIGINT NOT NULL, subject_digest TEXT NOT NULL, policy_digest TEXT,
  reserved_amount DOUBLE PRECISION NOT NULL, audit_index BIGINT NOT NULL, envelope TEXT NOT NULL,
  verdict TEXT NOT NULL);
CREATE INDEX decisions_tenant ON decisions(tenant_id, created_at_ms);
CREATE TABLE audit_head (id INTEGER PRIMARY KEY CHECK (id = 1), size BIGINT NOT NULL);
INSERT INTO audit_head (id, size) VALUES (1, 0);
CREATE TABLE audit_log (idx BIGINT PRIMARY KEY, entry TEXT NOT NULL, leaf_hash BYTEA NOT NULL);
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$;
CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TABLE signing_keys (
  kid TEXT NOT NULL, role TEXT NOT NULL, public_key TEXT NOT NULL, name TEXT, not_before_ms BIGINT NOT NULL,
  not_after_ms BIGINT, created_at_ms BIGINT NOT NULL, PRIMARY KEY (kid, role));
CREATE TABLE policies (
  seq BIGSERIAL PRIMARY KEY, tenant_id TEXT NOT NULL, digest TEXT NOT NULL, policy_id TEXT NOT NULL,
  source TEXT NOT NULL, yaml_text TEXT NOT NULL, activated_at_ms BIGINT NOT NULL);
CREATE INDEX policies_tenant ON policies(tenant_id, seq);
`,
  },
];
