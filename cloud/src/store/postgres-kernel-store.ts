/**
 * The kernel store on the shared PostgreSQL store. A settlement locks the proposal row with
 * SELECT … FOR UPDATE, so among concurrent transitions of one proposal — from any replica — the first
 * to lock moves it and every later one sees the moved state (READ COMMITTED re-reads the locked row).
 * Lock order: proposal row → reservation row → audit_head, never the reverse.
 */
import { toProposal } from './kernel-rows.js';
import { KERNEL_MIGRATIONS_TABLE, POSTGRES_KERNEL_MIGRATIONS } from './kernel-schema.js';
import { openByKeyQuery, queueQuery } from './approvals-queue-query.js';
import { postgresAuditEventsQuery } from './audit-events-query.js';
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
import type { PostgresStore } from './postgres-store.js';
import type { AuditRecord, PolicyRecord } from './records.js';
import { type Row, num, toAudit, toPolicy } from './row-mappers.js';

export class PostgresKernelStore implements KernelStore {
  readonly #store: PostgresStore;

  private constructor(store: PostgresStore) {
    this.#store = store;
  }

  static async open(store: PostgresStore): Promise<PostgresKernelStore> {
    await store.transaction(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock(7268032)');
      await c.query(KERNEL_MIGRATIONS_TABLE);
      const applied = new Set(
        (await c.query('SELECT version FROM kernel_schema_migrations')).rows.map((r) => num(r.version)),
      );
      for (const m of POSTGRES_KERNEL_MIGRATIONS) {
        if (applied.has(m.version)) continue;
        await c.query(m.sql);
        await c.query('INSERT INTO kernel_schema_migrations (version, applied_at_ms) VALUES ($1, $2)', [
          m.version,
          Date.now(),
        ]);
      }
    });
    return new PostgresKernelStore(store);
  }

  async getProposal(tenantId: string, id: string): Promise<ProposalRecord | undefined> {
    const [row] = await this.#store.queryRows(
      'SELECT * FROM kernel_proposals WHERE tenant_id = $1 AND id = $2',
      [tenantId, id],
    );
    return row && toProposal(row);
  }

  async findByIdempotencyKey(tenantId: string, key: string): Promise<ProposalRecord | undefined> {
    const [row] = await this.#store.queryRows(
      'SELECT * FROM kernel_proposals WHERE tenant_id = $1 AND idempotency_key = $2',
      [tenantId, key],
    );
    return row && toProposal(row);
  }

  settle(s: Settlement): Promise<SettleResult> {
    return this.#store.transaction(async (c, appendAudit): Promise<SettleResult> => {
      const locked = await c.query(
        'SELECT state FROM kernel_proposals WHERE tenant_id = $1 AND id = $2 FOR UPDATE',
        [s.tenantId, s.proposalId],
      );
      const row = locked.rows[0] as Row | undefined;
      const current = row ? (String(row.state) as ProposalState) : undefined;
      if (current === undefined || !s.from.includes(current)) return { settled: false, current };
      await c.query(
        'UPDATE kernel_proposals SET state = $1, updated_at_ms = $2, settled_by = $3 WHERE tenant_id = $4 AND id = $5',
        [s.to, s.nowMs, s.actor, s.tenantId, s.proposalId],
      );
      if (s.reservation) {
        await c.query(
          "UPDATE budget_reservations SET state = $1 WHERE id = $2 AND tenant_id = $3 AND state = 'reserved'",
          [s.reservation.state, s.reservation.id, s.tenantId],
        );
      }
      return { settled: true, audit: await appendAudit(s.audit) };
    });
  }

  async listQueue(
    tenantId: string,
    lane: QueueLane,
    after: QueuePosition | undefined,
    limit: number,
  ): Promise<ProposalRecord[]> {
    const { sql, params } = queueQuery((n) => `$${n}`, tenantId, lane, after, limit);
    return (await this.#store.queryRows(sql, params)).map(toProposal);
  }

  async countOpenByKey(tenantId: string, keyId: string, atMost: number): Promise<number> {
    const { sql, params } = openByKeyQuery((n) => `$${n}`, tenantId, keyId, atMost);
    const [row] = await this.#store.queryRows(sql, params);
    return num(row!.n);
  }

  async dueForExpiry(nowMs: number, limit: number): Promise<ProposalRecord[]> {
    const rows = await this.#store.queryRows(
      `SELECT * FROM kernel_proposals WHERE state IN ('open', 'approved') AND expires_at_ms < $1
       ORDER BY expires_at_ms LIMIT $2`,
      [nowMs, limit],
    );
    return rows.map(toProposal);
  }

  async policyByDigest(tenantIds: readonly string[], digest: string): Promise<PolicyRecord | undefined> {
    const [row] = await this.#store.queryRows(
      'SELECT * FROM policies WHERE digest = $1 AND tenant_id = ANY($2) ORDER BY seq LIMIT 1',
      [digest, [...tenantIds]],
    );
    return row && toPolicy(row);
  }

  async auditEvents(q: AuditEventQuery): Promise<AuditRecord[]> {
    const { sql, params } = postgresAuditEventsQuery(q);
    const rows = await this.#store.queryRows(sql, params);
    return rows.map(toAudit);
  }
}
