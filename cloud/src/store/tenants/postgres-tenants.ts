/**
 * Tenants and their API keys on PostgreSQL: one family, as a key is a tenant's credential, listed and
 * revoked per tenant. Each write is one statement, atomic without a transaction.
 */
import type { PostgresQuery } from '../postgres-query.js';
import type { ApiKeyRecord, TenantRecord } from '../records.js';
import { toApiKey, toTenant } from '../row-mappers.js';

export class PostgresTenants {
  readonly #query: PostgresQuery;

  constructor(query: PostgresQuery) {
    this.#query = query;
  }

  async createTenant(t: TenantRecord): Promise<void> {
    await this.#query('INSERT INTO tenants (id, name, created_at_ms) VALUES ($1, $2, $3)', [
      t.id,
      t.name,
      t.createdAtMs,
    ]);
  }

  async getTenant(id: string): Promise<TenantRecord | undefined> {
    const [row] = await this.#query('SELECT * FROM tenants WHERE id = $1', [id]);
    return row && toTenant(row);
  }

  async listTenants(): Promise<TenantRecord[]> {
    return (await this.#query('SELECT * FROM tenants ORDER BY created_at_ms, id')).map(toTenant);
  }

  async insertApiKey(k: ApiKeyRecord): Promise<void> {
    await this.#query(
      `INSERT INTO api_keys (id, tenant_id, scope, key_hash, created_at_ms, revoked_at_ms, region, department, agent_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        k.id,
        k.tenantId,
        k.scope,
        k.keyHashHex,
        k.createdAtMs,
        k.revokedAtMs,
        k.region,
        k.department,
        k.agentName,
      ],
    );
  }

  async findApiKeyByHash(keyHashHex: string): Promise<ApiKeyRecord | undefined> {
    const [row] = await this.#query('SELECT * FROM api_keys WHERE key_hash = $1', [keyHashHex]);
    return row && toApiKey(row);
  }

  async listApiKeys(tenantId: string): Promise<ApiKeyRecord[]> {
    return (
      await this.#query('SELECT * FROM api_keys WHERE tenant_id = $1 ORDER BY created_at_ms, id', [tenantId])
    ).map(toApiKey);
  }

  async revokeApiKey(tenantId: string, keyId: string, nowMs: number): Promise<boolean> {
    const rows = await this.#query(
      'UPDATE api_keys SET revoked_at_ms = $1 WHERE id = $2 AND tenant_id = $3 AND revoked_at_ms IS NULL RETURNING id',
      [nowMs, keyId, tenantId],
    );
    return rows.length === 1;
  }
}
