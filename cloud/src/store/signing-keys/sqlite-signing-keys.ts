/**
 * The cloud's signing keys on SQLite: public halves and validity only, the trust document that audit kits
 * and the keys route publish. A key is recorded once per kid and role, so a restart recording it again is
 * a no-op.
 */
import type Database from 'better-sqlite3';
import type { SigningKeyRecord } from '../records.js';
import { type Row, toSigningKey } from '../row-mappers.js';

function prepare(db: Database.Database) {
  return {
    insertSigningKey: db.prepare(
      `INSERT INTO signing_keys (kid, role, public_key, name, not_before_ms, not_after_ms, created_at_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (kid, role) DO NOTHING`,
    ),
    listSigningKeys: db.prepare('SELECT * FROM signing_keys ORDER BY created_at_ms, kid, role'),
    retireSigningKey: db.prepare(
      `UPDATE signing_keys SET not_after_ms = ?
        WHERE kid = ? AND not_after_ms IS NULL AND not_before_ms <= ?`,
    ),
  };
}

export class SqliteSigningKeys {
  readonly #stmts: ReturnType<typeof prepare>;

  constructor(db: Database.Database) {
    this.#stmts = prepare(db);
  }

  /** Inside a write; false when the kid and role were recorded before. */
  putSigningKey(key: SigningKeyRecord): boolean {
    return (
      this.#stmts.insertSigningKey.run(
        key.kid,
        key.role,
        key.publicKey,
        key.name,
        key.notBeforeMs,
        key.notAfterMs,
        key.createdAtMs,
      ).changes === 1
    );
  }

  /** Inside a write; false when no key of that kid is valid without an end from before `notAfterMs`. */
  retireSigningKey(kid: string, notAfterMs: number): boolean {
    return this.#stmts.retireSigningKey.run(notAfterMs, kid, notAfterMs).changes > 0;
  }

  listSigningKeys(): SigningKeyRecord[] {
    return (this.#stmts.listSigningKeys.all() as Row[]).map(toSigningKey);
  }
}
