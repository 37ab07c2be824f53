/**
 * The cloud's signing keys on PostgreSQL: public halves and validity only, the trust document that audit
 * kits and the keys route publish. A key is recorded once per kid and role; replicas starting together are
 * settled by the primary key (ON CONFLICT DO NOTHING), not by a read first.
 */
import type { PostgresClient, PostgresQuery } from '../postgres-query.js';
import type { SigningKeyRecord } from '../records.js';
import { toSigningKey } from '../row-mappers.js';

export class PostgresSigningKeys {
  readonly #query: PostgresQuery;

  constructor(query: PostgresQuery) {
    this.#query = query;
  }

  async putSigningKey(k: SigningKeyRecord): Promise<boolean> {
    const rows = await this.#query(
      `INSERT INTO signing_keys (kid, role, public_key, name, not_before_ms, not_after_ms, created_at_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (kid, role) DO NOTHING RETURNING kid`,
      [k.kid, k.role, k.publicKey, k.name, k.notBeforeMs, k.notAfterMs, k.createdAtMs],
    );
    return rows.length === 1;
  }

  /** In the caller's transaction; false when no key of that kid is valid without an end from before `notAfterMs`. */
  async retireSigningKey(c: PostgresClient, kid: string, notAfterMs: number): Promise<boolean> {
    const { rowCount } = await c.query(
      `UPDATE signing_keys SET not_after_ms = $1
        WHERE kid = $2 AND not_after_ms IS NULL AND not_before_ms <= $1`,
      [notAfterMs, kid],
    );
    return (rowCount ?? 0) > 0;
  }

  async listSigningKeys(): Promise<SigningKeyRecord[]> {
    return (await this.#query('SELECT * FROM signing_keys ORDER BY created_at_ms, kid, role')).map(
      toSigningKey,
    );
  }
}
