/**
 * The audit log on PostgreSQL. Appends run on the client of a transaction the caller opened: the index and
 * the entry must commit together with the caller's other writes, or not at all.
 */
import type { PostgresClient, PostgresQuery, SqlStatement } from '../postgres-query.js';
import type { AuditRecord } from '../records.js';
import { type Row, bytes, num, toAudit } from '../row-mappers.js';
import type { AuditEntryBuilder } from '../store.js';
import { encodeAuditEntry } from './audit-leaf.js';

export class PostgresAudit {
  readonly #query: PostgresQuery;

  constructor(query: PostgresQuery) {
    this.#query = query;
  }

  async nextAuditIndex(c: PostgresClient): Promise<number> {
    // the row lock on audit_head is held to COMMIT: indices are handed out in commit order, without gaps
    const res = await c.query('UPDATE audit_head SET size = size + 1 WHERE id = 1 RETURNING size - 1 AS idx');
    return num((res.rows[0] as Row).idx);
  }

  /**
   * For a group commit (postgres-group-commit.ts): locks audit_head until COMMIT and returns its size, the
   * index the batch's first entry takes. Under READ COMMITTED a SELECT … FOR UPDATE that waited for another
   * writer returns the row as that writer committed it, so the batch starts where the last commit ended.
   */
  async lockHead(c: PostgresClient): Promise<number> {
    const res = await c.query('SELECT size FROM audit_head WHERE id = 1 FOR UPDATE');
    return num((res.rows[0] as Row).size);
  }

  /** Inside the transaction that locked the head: the size after the batch's entries. */
  async storeHead(c: PostgresClient, size: number): Promise<void> {
    await c.query('UPDATE audit_head SET size = $1 WHERE id = 1', [size]);
  }

  /** The INSERT of `entry` at `index` (refused by encodeAuditEntry if built for another index), and its record. */
  auditInsert(
    entry: ReturnType<AuditEntryBuilder>,
    index: number,
  ): { statement: SqlStatement; record: AuditRecord } {
    const encoded = encodeAuditEntry(entry, index);
    return {
      statement: {
        sql: 'INSERT INTO audit_log (idx, entry, leaf_hash) VALUES ($1, $2, $3)',
        params: [index, encoded.text, Buffer.from(encoded.leafHash)],
      },
      record: { index, entry, leafHash: encoded.leafHash },
    };
  }

  async insertAudit(
    c: PostgresClient,
    entry: ReturnType<AuditEntryBuilder>,
    index: number,
  ): Promise<AuditRecord> {
    const { statement, record } = this.auditInsert(entry, index);
    await c.query(statement.sql, statement.params);
    return record;
  }

  async appendAudit(c: PostgresClient, build: AuditEntryBuilder): Promise<AuditRecord> {
    const index = await this.nextAuditIndex(c);
    return this.insertAudit(c, build(index), index);
  }

  async auditSize(): Promise<number> {
    const [row] = await this.#query('SELECT size FROM audit_head WHERE id = 1');
    return num(row!.size);
  }

  async auditEntries(fromIndex: number, toIndex: number): Promise<AuditRecord[]> {
    return (
      await this.#query('SELECT * FROM audit_log WHERE idx >= $1 AND idx < $2 ORDER BY idx', [
        fromIndex,
        toIndex,
      ])
    ).map(toAudit);
  }

  async auditLeafHashes(fromIndex: number, toIndex: number): Promise<Uint8Array[]> {
    const rows = await this.#query(
      'SELECT leaf_hash FROM audit_log WHERE idx >= $1 AND idx < $2 ORDER BY idx',
      [fromIndex, toIndex],
    );
    return rows.map((r) => bytes(r.leaf_hash));
  }
}
