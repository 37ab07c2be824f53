/**
 * Policy versions on SQLite: each tenant's history of activated policies, the newest being the active one.
 * Activating runs inside the store's single writer (SqliteStore), so the check that the digest changed and
 * the insert cannot be split by another activation.
 */
import type Database from 'better-sqlite3';
import type { PolicyRecord } from '../records.js';
import { type Row, toPolicy } from '../row-mappers.js';

function prepare(db: Database.Database) {
  return {
    insertPolicy: db.prepare(
      `INSERT INTO policies (tenant_id, digest, policy_id, source, yaml_text, activated_at_ms)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    activePolicy: db.prepare('SELECT * FROM policies WHERE tenant_id = ? ORDER BY seq DESC LIMIT 1'),
  };
}

export class SqlitePolicies {
  readonly #stmts: ReturnType<typeof prepare>;

  constructor(db: Database.Database) {
    this.#stmts = prepare(db);
  }

  /** Inside a write; false when this digest is already the tenant's active policy. */
  putPolicy(policy: PolicyRecord): boolean {
    const active = this.#stmts.activePolicy.get(policy.tenantId) as Row | undefined;
    if (active && active.digest === policy.digest) return false;
    this.#stmts.insertPolicy.run(
      policy.tenantId,
      policy.digest,
      policy.policyId,
      policy.source,
      policy.yamlText,
      policy.activatedAtMs,
    );
    return true;
  }

  activePolicy(tenantId: string): PolicyRecord | undefined {
    const row = this.#stmts.activePolicy.get(tenantId) as Row | undefined;
    return row && toPolicy(row);
  }
}
