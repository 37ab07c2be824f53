/**
 * The SQLite tables. Migrations are numbered and applied once, in order, so the kernel can append its
 * own (proposals, approvals, executions) as later versions without touching these.
 */
import { AGENT_ACCOUNTS_SQL, UNREAD_INDEXES_DROPPED_SQL } from './portable-migrations.js';

export const SQLITE_MIGRATIONS: readonly { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
CREATE TABLE tenants (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at_ms INTEGER NOT NULL);
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL REFERENCES tenants(id), scope TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE, created_at_ms INTEGER NOT NULL, revoked_at_ms INTEGER);
CREATE INDEX api_keys_tenant ON api_keys(tenant_id);
CREATE TABLE agents (
  id TEXT NOT NULL, tenant_id TEXT NOT NULL REFERENCES tenants(id), name TEXT NOT NULL, version TEXT NOT NULL,
  domain TEXT NOT NULL, lobe_name TEXT NOT NULL, created_at_ms INTEGER NOT NULL, metadata TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id), UNIQUE (tenant_id, name, version), UNIQUE (tenant_id, lobe_name));
CREATE TABLE budget_reservations (
  id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, agent_id TEXT NOT NULL, amount REAL NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('reserved', 'committed', 'released')), created_at_ms INTEGER NOT NULL,
  decision_id TEXT NOT NULL);
-- covering: the window sums read only this index, never the table
CREATE INDEX budget_reservations_window ON budget_reservations(tenant_id, agent_id, created_at_ms, state, amount);
CREATE TABLE call_history (
  decision_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, agent_id TEXT NOT NULL, tool_name TEXT NOT NULL,
  tool_key TEXT NOT NULL, fingerprint TEXT NOT NULL, near_fingerprint TEXT NOT NULL, at_ms INTEGER NOT NULL, approved INTEGER NOT NULL,
  violations TEXT NOT NULL);
CREATE INDEX call_history_agent ON call_history(tenant_id, agent_id, at_ms);
CREATE INDEX call_history_fingerprint ON call_history(tenant_id, agent_id, fingerprint, at_ms);
CREATE INDEX call_history_near ON call_history(tenant_id, agent_id, near_fingerprint, at_ms);
CREATE INDEX call_history_denied ON call_history(tenant_id, agent_id, tool_key, approved, at_ms);
CREATE TABLE decisions (
  id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, agent_id TEXT NOT NULL, outcome TEXT NOT NULL,
  approved INTEGER NOT NULL, created_at_ms INTEGER NOT NULL, subject_digest TEXT NOT NULL, policy_digest TEXT,
  reserved_amount REAL NOT NULL, audit_index INTEGER NOT NULL, envelope TEXT NOT NULL, verdict TEXT NOT NULL);
CREATE INDEX decisions_tenant ON decisions(tenant_id, created_at_ms);
CREATE TABLE audit_log (idx INTEGER PRIMARY KEY, entry TEXT NOT NULL, leaf_hash BLOB NOT NULL);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
  BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
  BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TABLE signing_keys (
  kid TEXT NOT NULL, role TEXT NOT NULL, public_key TEXT NOT NULL, name TEXT, not_before_ms INTEGER NOT NULL,
  not_after_ms INTEGER, created_at_ms INTEGER NOT NULL, PRIMARY KEY (kid, role));
CREATE TABLE policies (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, tenant_id TEXT NOT NULL, digest TEXT NOT NULL, policy_id TEXT NOT NULL,
  source TEXT NOT NULL, yaml_text TEXT NOT NULL, activated_at_ms INTEGER NOT NULL);
CREATE INDEX policies_tenant ON policies(tenant_id, seq);
`,
  },
  {
    // Running budget totals per agent and window length (budget/budget-window.ts): one row the reservation reads
    // and advances instead of summing every reservation of the window. The triggers keep every account
    // in step with any insert or settlement of a reservation inside its window, whoever writes it (the
    // platform, the kernel's settlements), in the same transaction.
    version: 2,
    sql: `
CREATE TABLE budget_windows (
  tenant_id TEXT NOT NULL, agent_id TEXT NOT NULL, window_ms INTEGER NOT NULL, cutoff_ms INTEGER NOT NULL,
  spent REAL NOT NULL, reserved REAL NOT NULL, PRIMARY KEY (tenant_id, agent_id, window_ms));
CREATE TRIGGER budget_windows_on_reserve AFTER INSERT ON budget_reservations BEGIN
  UPDATE budget_windows
     SET reserved = reserved + CASE WHEN NEW.state = 'reserved' THEN NEW.amount ELSE 0 END,
         spent = spent + CASE WHEN NEW.state = 'committed' THEN NEW.amount ELSE 0 END
   WHERE tenant_id = NEW.tenant_id AND agent_id = NEW.agent_id AND cutoff_ms < NEW.created_at_ms;
END;
CREATE TRIGGER budget_windows_on_settle AFTER UPDATE OF state ON budget_reservations
  WHEN OLD.state <> NEW.state BEGIN
  UPDATE budget_windows
     SET reserved = reserved - CASE WHEN OLD.state = 'reserved' THEN OLD.amount ELSE 0 END
                             + CASE WHEN NEW.state = 'reserved' THEN NEW.amount ELSE 0 END,
         spent = spent - CASE WHEN OLD.state = 'committed' THEN OLD.amount ELSE 0 END
                       + CASE WHEN NEW.state = 'committed' THEN NEW.amount ELSE 0 END
   WHERE tenant_id = NEW.tenant_id AND agent_id = NEW.agent_id AND cutoff_ms < NEW.created_at_ms;
END;
CREATE TRIGGER budget_reservations_fixed BEFORE UPDATE OF tenant_id, agent_id, amount, created_at_ms
  ON budget_reservations BEGIN SELECT RAISE(ABORT, 'a reservation changes only its state'); END;
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
    // portable-migrations.ts: the same SQL in both dialects (as the next one)
    version: 5,
    sql: UNREAD_INDEXES_DROPPED_SQL,
  },
  {
    version: 6,
    sql: AGENT_ACCOUNTS_SQL,
  },
];
