/**
 * Tenants and their API keys on SQLite: one family, as a key is a tenant's credential, listed and revoked
 * per tenant. The writes run inside the store's single writer (SqliteStore).
 */
import type Database from 'better-sqlite3';
import type { ApiKeyRecord, TenantRecord } from '../records.js';
import { type Row, toApiKey, toTenant } from '../row-mappers.js';

function prepare(db: Database.Database) {
  return {
    insertTenant: db.prepare('INSERT INTO tenants (id, name, created_at_ms) VALUES (?, ?, ?)'),
    getTenant: db.prepare('SELECT * FROM tenants WHERE id = ?'),
    listTenants: db.prepare('SELECT * FROM tenants ORDER BY created_at_ms, id'),
    insertApiKey: db.prepare(
      `INSERT INTO api_keys (id, tenant_id, scope, key_hash, created_at_ms, revoked_at_ms, region, department, agent_name)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    findApiKey: db.prepare('SELECT * FROM api_keys WHERE key_hash = ?'),
    listApiKeys: db.prepare('SELECT * FROM api_keys WHERE tenant_id = ? ORDER BY created_at_ms, id'),
    revokeApiKey: db.prepare(
      'UPDATE api_keys SET revoked_at_ms = ? WHERE id = ? AND tenant_id = ? AND revoked_at_ms IS NULL',
    ),
  };
}

export class SqliteTenants {
  readonly #stmts: ReturnType<typeof prepare>;

  constructor(db: Database.Database) {
    this.#stmts = prepare(db);
  }

  createTenant(tenant: TenantRecord): void {
    this.#stmts.insertTenant.run(tenant.id, tenant.name, tenant.createdAtMs);
  }

  getTenant(id: string): TenantRecord | undefined {
    const row = this.#stmts.getTenant.get(id) as Row | undefined;
    return row && toTenant(row);
  }

  listTenants(): TenantRecord[] {
    return (this.#stmts.listTenants.all() as Row[]).map(toTenant);
  }

  insertApiKey(key: ApiKeyRecord): void {
    this.#stmts.insertApiKey.run(
      key.id,
      key.tenantId,
      key.scope,
      key.keyHashHex,
      key.createdAtMs,
      key.revokedAtMs,
      key.region,
      key.department,
      key.agentName,
    );
  }

  findApiKeyByHash(keyHashHex: string): ApiKeyRecord | undefined {
    const row = this.#stmts.findApiKey.get(keyHashHex) as Row | undefined;
    return row && toApiKey(row);
  }

  listApiKeys(tenantId: string): ApiKeyRecord[] {
    return (this.#stmts.listApiKeys.all(tenantId) as Row[]).map(toApiKey);
  }

  revokeApiKey(tenantId: string, keyId: string, nowMs: number): boolean {
    return this.#stmts.revokeApiKey.run(nowMs, keyId, tenantId).changes === 1;
  }
}
