/**
 * Policy versions on PostgreSQL: each tenant's history of activated policies, the newest being the active
 * one. Activating runs in the store's transaction under a per-tenant advisory lock, so two replicas cannot
 * both see the old digest and insert the same new one.
 */
import type { PostgresClient, PostgresQuery } from '../postgres-query.js';
import type { PolicyRecord } from '../records.js';
import { toPolicy } from '../row-mappers.js';

export class PostgresPolicies {
  readonly #query: PostgresQuery;

  constructor(query: PostgresQuery) {
    this.#query = query;
  }

  async putPolicy(c: PostgresClient, p: PolicyRecord): Promise<boolean> {
    // serialise policy changes of one tenant so two replicas never both insert the same digest
    await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`policy:${p.tenantId}`]);
    const active = await c.query(
      'SELECT digest FROM policies WHERE tenant_id = $1 ORDER BY seq DESC LIMIT 1',
      [p.tenantId],
    );
    if (active.rows[0]?.digest === p.digest) return false;
    await c.query(
      `INSERT INTO policies (tenant_id, digest, policy_id, source, yaml_text, activated_at_ms)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [p.tenantId, p.digest, p.policyId, p.source, p.yamlText, p.activatedAtMs],
    );
    return true;
  }

  async activePolicy(tenantId: string): Promise<PolicyRecord | undefined> {
    const [row] = await this.#query('SELECT * FROM policies WHERE tenant_id = $1 ORDER BY seq DESC LIMIT 1', [
      tenantId,
    ]);
    return row && toPolicy(row);
  }
}
