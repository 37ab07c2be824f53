/**
 * The audit log on SQLite. Appends run inside the store's single writer, so the next index read here is
 * the index the insert takes; the store, not this file, knows which of them are durable yet (auditSize).
 */
import type Database from 'better-sqlite3';
import type { AuditRecord } from '../records.js';
import { type Row, bytes, num, toAudit } from '../row-mappers.js';
import type { AuditEntryBuilder } from '../store.js';
import { encodeAuditEntry } from './audit-leaf.js';

function prepare(db: Database.Database) {
  return {
    // MAX over the rowid is O(log n); indices are contiguous from 0, so MAX + 1 is the size.
    auditSize: db.prepare('SELECT COALESCE(MAX(idx) + 1, 0) AS size FROM audit_log'),
    insertAudit: db.prepare('INSERT INTO audit_log (idx, entry, leaf_hash) VALUES (?, ?, ?)'),
    auditEntries: db.prepare('SELECT * FROM audit_log WHERE idx >= ? AND idx < ? ORDER BY idx'),
    auditLeafHashes: db.prepare('SELECT leaf_hash FROM audit_log WHERE idx >= ? AND idx < ? ORDER BY idx'),
  };
}

export class SqliteAudit {
  readonly #stmts: ReturnType<typeof prepare>;

  constructor(db: Database.Database) {
    this.#stmts = prepare(db);
  }

  /** Everything committed, durable or not. */
  nextAuditIndex(): number {
    return num((this.#stmts.auditSize.get() as Row).size);
  }

  /** Inside a write: takes the next index and inserts the entry built for it. */
  appendAudit(build: AuditEntryBuilder): AuditRecord {
    const index = this.nextAuditIndex();
    return this.insertAudit(build(index), index);
  }

  /** Inside a write, at the index the caller took with nextAuditIndex. */
  insertAudit(entry: ReturnType<AuditEntryBuilder>, index: number): AuditRecord {
    const encoded = encodeAuditEntry(entry, index);
    this.#stmts.insertAudit.run(index, encoded.text, encoded.leafHash);
    return { index, entry, leafHash: encoded.leafHash };
  }

  auditEntries(fromIndex: number, toIndex: number): AuditRecord[] {
    return (this.#stmts.auditEntries.all(fromIndex, toIndex) as Row[]).map(toAudit);
  }

  auditLeafHashes(fromIndex: number, toIndex: number): Uint8Array[] {
    return (this.#stmts.auditLeafHashes.all(fromIndex, toIndex) as Row[]).map((r) => bytes(r.leaf_hash));
  }
}
