/**
 * Agent (lobe) registration and look-ups on SQLite. Registering is idempotent per tenant + name + version
 * and writes its `agent.registered` audit entry in the same write, so it runs inside the store's single
 * writer (SqliteStore), which settles two registrations of one agent by running them one after the other.
 * A registration joins the account of its agent_name's first registration (AgentRecord.accountId).
 */
import type Database from 'better-sqlite3';
import { canonicalize } from '@pentagate/protocol';
import type { SqliteAudit } from '../audit/sqlite-audit.js';
import type { AgentRecord } from '../records.js';
import { type Row, toAgent } from '../row-mappers.js';
import type { AgentRegistration, AuditEntryBuilder, RegisterAgentResult } from '../store.js';

function prepare(db: Database.Database) {
  return {
    findAgentByNameVersion: db.prepare(
      'SELECT * FROM agents WHERE tenant_id = ? AND name = ? AND version = ?',
    ),
    findAgentByLobe: db.prepare('SELECT * FROM agents WHERE tenant_id = ? AND lobe_name = ?'),
    findAgentById: db.prepare('SELECT * FROM agents WHERE tenant_id = ? AND id = ?'),
    accountOfName: db.prepare(
      'SELECT account_id FROM agents WHERE tenant_id = ? AND name = ? ORDER BY created_at_ms, id LIMIT 1',
    ),
    insertAgent: db.prepare(
      `INSERT INTO agents (id, tenant_id, name, version, domain, lobe_name, created_at_ms, metadata, account_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ),
  };
}

export class SqliteAgents {
  readonly #stmts: ReturnType<typeof prepare>;
  readonly #audit: SqliteAudit;

  constructor(db: Database.Database, audit: SqliteAudit) {
    this.#stmts = prepare(db);
    this.#audit = audit;
  }

  /** Inside a write. */
  registerAgent(registration: AgentRegistration, audit: AuditEntryBuilder): RegisterAgentResult {
    const r = registration;
    const existing = this.#stmts.findAgentByNameVersion.get(r.tenantId, r.name, r.version) as Row | undefined;
    if (existing) return { status: 'existing', agent: toAgent(existing) };
    const account = this.#stmts.accountOfName.get(r.tenantId, r.name) as Row | undefined;
    const accountId = account ? (account.account_id as string) : r.id;
    const inserted = this.#stmts.insertAgent.run(
      r.id,
      r.tenantId,
      r.name,
      r.version,
      r.domain,
      r.lobeName,
      r.createdAtMs,
      canonicalize(r.metadata),
      accountId,
    );
    if (inserted.changes === 0) {
      const idTaken = this.#stmts.findAgentById.get(r.tenantId, r.id) !== undefined;
      return { status: 'conflict', field: idTaken ? 'id' : 'lobeName' };
    }
    return { status: 'created', agent: { ...r, accountId }, audit: this.#audit.appendAudit(audit) };
  }

  findAgentByLobe(tenantId: string, lobeName: string): AgentRecord | undefined {
    const row = this.#stmts.findAgentByLobe.get(tenantId, lobeName) as Row | undefined;
    return row && toAgent(row);
  }

  findAgentById(tenantId: string, agentId: string): AgentRecord | undefined {
    const row = this.#stmts.findAgentById.get(tenantId, agentId) as Row | undefined;
    return row && toAgent(row);
  }
}
