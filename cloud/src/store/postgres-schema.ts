/**
 * The PostgreSQL tables: the same shape as sqlite-schema.ts, with two additions for many writers —
 * `audit_head` (one row whose lock orders audit appends across replicas) and `budget_accounts` (one row per
 * agent whose lock serialises budget reservations).
 */
import { AUDIT_FILTER_COLUMNS_SQL } from './audit/postgres-audit-columns.js';
import { AGENT_ACCOUNTS_SQL, UNREAD_INDEXES_DROPPED_SQL } from './portable-migrations.js';

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
  {
    // Running budget totals per agent and window length (budget/budget-window.ts), kept in step by triggers on
    // every insert and settlement of a reservation inside the account's window, in the writer's transaction.
    version: 2,
    sql: `
CREATE TABLE budget_windows (
  tenant_id TEXT NOT NULL, agent_id TEXT NOT NULL, window_ms BIGINT NOT NULL, cutoff_ms BIGINT NOT NULL,
  spent DOUBLE PRECISION NOT NULL, reserved DOUBLE PRECISION NOT NULL, PRIMARY KEY (tenant_id, agent_id, window_ms));
CREATE FUNCTION budget_windows_follow() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    d_reserved DOUBLE PRECISION := CASE WHEN NEW.state = 'reserved' THEN NEW.amount ELSE 0 END;
    d_spent DOUBLE PRECISION := CASE WHEN NEW.state = 'committed' THEN NEW.amount ELSE 0 END;
  BEGIN
    IF TG_OP = 'UPDATE' THEN
      IF NEW.tenant_id <> OLD.tenant_id OR NEW.agent_id <> OLD.agent_id OR NEW.amount <> OLD.amount
         OR NEW.created_at_ms <> OLD.created_at_ms THEN
        RAISE EXCEPTION 'a reservation changes only its state';
      END IF;
      IF NEW.state = OLD.state THEN RETURN NEW; END IF;
      d_reserved := d_reserved - CASE WHEN OLD.state = 'reserved' THEN OLD.amount ELSE 0 END;
      d_spent := d_spent - CASE WHEN OLD.state = 'committed' THEN OLD.amount ELSE 0 END;
    END IF;
    UPDATE budget_windows SET reserved = reserved + d_reserved, spent = spent + d_spent
     WHERE tenant_id = NEW.tenant_id AND agent_id = NEW.agent_id AND cutoff_ms < NEW.created_at_ms;
    RETURN NEW;
  END $$;
CREATE TRIGGER budget_windows_follow AFTER INSERT OR UPDATE ON budget_reservations
  FOR EACH ROW EXECUTE FUNCTION budget_windows_follow();
`,
  },
  {
    // The signed envelope lives once, in the decision's audit entry (data.envelope); the row's copy went.
    version: 3,
    sql: 'ALTER TABLE decisions DROP COLUMN envelope;',
  },
  {
    // The jurisdiction an administrator binds to a key: agent routes take region and department from here.
    version: 4,
    sql: 'ALTER TABLE api_keys ADD COLUMN region TEXT; ALTER TABLE api_keys ADD COLUMN department TEXT;',
  },
  {
    // An agent with two window lengths has two window rows. The follow trigger's UPDATE locked them in the order
    // its plan met them (heap order under a sequential scan), while a group commit locks them ORDER BY window_ms
    // (postgres-group-commit.ts): a settlement holding the 1 h row and waiting for the 1 min row, beside a batch
    // holding the 1 min row and waiting for the 1 h row, is a deadlock. A BEFORE trigger now takes them in the
    // batch's order before the row changes (LockRows sits above the Sort, so rows lock in ORDER BY order).
    version: 5,
    sql: `
CREATE FUNCTION budget_windows_lock_in_order() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM 1 FROM budget_windows WHERE tenant_id = NEW.tenant_id AND agent_id = NEW.agent_id
      ORDER BY window_ms FOR UPDATE;
    RETURN NEW;
  END $$;
CREATE TRIGGER budget_windows_lock_in_order BEFORE INSERT OR UPDATE ON budget_reservations
  FOR EACH ROW EXECUTE FUNCTION budget_windows_lock_in_order();
`,
  },
  {
    // portable-migrations.ts: the same SQL in both dialects (as the next one)
    version: 6,
    sql: UNREAD_INDEXES_DROPPED_SQL,
  },
  {
    version: 7,
    sql: AGENT_ACCOUNTS_SQL,
  },
  {
    // the console's filter fields as columns the database fills (audit/postgres-audit-columns.ts)
    version: 8,
    sql: AUDIT_FILTER_COLUMNS_SQL,
  },
];
