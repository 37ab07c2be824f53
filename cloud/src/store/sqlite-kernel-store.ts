/**
 * The kernel store on the embedded SQLite store. Every write runs through the platform store's
 * group-commit queue (`runWrite`): one writer, each write in its own savepoint of a BEGIN IMMEDIATE
 * transaction, so a settlement's check-and-move is atomic and durable (synchronous=FULL) before it answers.
 */
import { toProposal } from './kernel-rows.js';
import { KERNEL_MIGRATIONS_TABLE, SQLITE_KERNEL_MIGRATIONS } from './kernel-schema.js';
import { openByKeyQuery, queueQuery } from './approvals-queue-query.js';
import { sqliteAuditEventsQuery } from './audit-events-query.js';
import type {
  AuditEventQuery,
  KernelStore,
  ProposalRecord,
  ProposalState,
  QueueLane,
  QueuePosition,
  SettleResult,
  Settlement,
} from './kernel-store.js';
import type { AuditRecord, PolicyRecord } from './records.js';
import { type Row, num, toAudit, toPolicy } from './row-mappers.js';
import type { SqliteStore } from './sqlite-store.js';
import { preparedOnce } from './sqlite-prepared.js';

export class SqliteKernelStore implements KernelStore {
  readonly #store: SqliteStore;

  private constructor(store: SqliteStore) {
    this.#store = store;
  }

  static async open(store: SqliteStore): Promise<SqliteKernelStore> {
    await store.runWrite(({ db }) => {
      db.exec(KERNEL_MIGRATIONS_TABLE);
      const applied = new Set(
        (preparedOnce(db, 'SELECT version FROM kernel_schema_migrations').all() as Row[]).map((r) =>
          num(r.version),
        ),
      );
      for (const m of SQLITE_KERNEL_MIGRATIONS) {
        if (applied.has(m.version)) continue;
        db.exec(m.sql);
        preparedOnce(db, 'INSERT INTO kernel_schema_migrations (version, applied_at_ms) VALUES (?, ?)').run(
          m.version,
          Date.now(),
        );
      }
    });
    return new SqliteKernelStore(store);
  }

  async getProposal(tenantId: string, id: string): Promise<ProposalRecord | undefined> {
    const row = preparedOnce(
      this.#store.reader,
      'SELECT * FROM kernel_proposals WHERE tenant_id = ? AND id = ?',
    ).get(tenantId, id);
    return row ? toProposal(row as Row) : undefined;
  }

  async findByIdempotencyKey(tenantId: string, key: string): Promise<ProposalRecord | undefined> {
    return this.#byKey(tenantId, key);
  }

  #byKey(tenantId: string, key: string): ProposalRecord | undefined {
    const row = preparedOnce(
      this.#store.reader,
      'SELECT * FROM kernel_proposals WHERE tenant_id = ? AND idempotency_key = ?',
    ).get(tenantId, key);
    return row ? toProposal(row as Row) : undefined;
  }

  settle(s: Settlement): Promise<SettleResult> {
    return this.#store.runWrite(({ db, appendAudit }): SettleResult => {
      const row = preparedOnce(db, 'SELECT state FROM kernel_proposals WHERE tenant_id = ? AND id = ?').get(
        s.tenantId,
        s.proposalId,
      ) as Row | undefined;
      const current = row ? (String(row.state) as ProposalState) : undefined;
      if (current === undefined || !s.from.includes(current)) return { settled: false, current };
      preparedOnce(
        db,
        'UPDATE kernel_proposals SET state = ?, updated_at_ms = ?, settled_by = ? WHERE tenant_id = ? AND id = ? AND state = ?',
      ).run(s.to, s.nowMs, s.actor, s.tenantId, s.proposalId, current);
      if (s.reservation) {
        preparedOnce(
          db,
          "UPDATE budget_reservations SET state = ? WHERE id = ? AND tenant_id = ? AND state = 'reserved'",
        ).run(s.reservation.state, s.reservation.id, s.tenantId);
      }
      return { settled: true, audit: appendAudit(s.audit) };
    });
  }

  async listQueue(
    tenantId: string,
    lane: QueueLane,
    after: QueuePosition | undefined,
    limit: number,
  ): Promise<ProposalRecord[]> {
    const { sql, params } = queueQuery(() => '?', tenantId, lane, after, limit);
    return (preparedOnce(this.#store.reader, sql).all(...params) as Row[]).map(toProposal);
  }

  async countOpenByKey(tenantId: string, keyId: string, atMost: number): Promise<number> {
    const { sql, params } = openByKeyQuery(() => '?', tenantId, keyId, atMost);
    return num((preparedOnce(this.#store.reader, sql).get(...params) as Row).n);
  }

  async dueForExpiry(nowMs: number, limit: number): Promise<ProposalRecord[]> {
    const rows = preparedOnce(
      this.#store.reader,
      `SELECT * FROM kernel_proposals WHERE state IN ('open', 'approved') AND expires_at_ms < ?
         ORDER BY expires_at_ms LIMIT ?`,
    ).all(nowMs, limit) as Row[];
    return rows.map(toProposal);
  }

  async policyByDigest(tenantIds: readonly string[], digest: string): Promise<PolicyRecord | undefined> {
    const marks = tenantIds.map(() => '?').join(', ');
    const row = preparedOnce(
      this.#store.reader,
      `SELECT * FROM policies WHERE digest = ? AND tenant_id IN (${marks}) ORDER BY seq LIMIT 1`,
    ).get(digest, ...tenantIds) as Row | undefined;
    return row && toPolicy(row);
  }

  async auditEvents(q: AuditEventQuery): Promise<AuditRecord[]> {
    const { sql, params } = sqliteAuditEventsQuery(q);
    const rows = preparedOnce(this.#store.reader, sql).all(...params) as Row[];
    return rows.map(toAudit);
  }
}
