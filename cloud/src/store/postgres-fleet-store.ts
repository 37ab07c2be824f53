/**
 * The fleet store on the shared PostgreSQL store. An upload locks its robot's chain row (created on the
 * first upload) with SELECT … FOR UPDATE before it reads the head, so concurrent uploads of one robot on
 * any replica are checked one after another. Lock order: chain row → audit_head, like every other writer
 * (their own row first, the audit head last).
 */
import type { ConsentQueue } from './consent-queue.js';
import { planEdgeAppend } from './fleet-chain.js';
import { PostgresConsentQueue } from './postgres-consent-queue.js';
import {
  EMPTY_CHAIN,
  robotValues,
  toChainState,
  toCommandHistory,
  toOperatorKey,
  toRobot,
} from './fleet-rows.js';
import { FLEET_MIGRATIONS_TABLE, POSTGRES_FLEET_MIGRATIONS, ROBOT_COLUMNS } from './fleet-schema.js';
import type {
  AddRobotResult,
  EdgeAppendResult,
  EdgeChainState,
  EdgeRecordWrite,
  FleetStore,
  OperatorKeyRecord,
  RobotRecord,
} from './fleet-store.js';
import type { PostgresStore } from './postgres-store.js';
import type { ApiKeyRecord, AuditRecord } from './records.js';
import { num } from './row-mappers.js';
import type { AuditEntryBuilder } from './store.js';

const marks = (n: number) => Array.from({ length: n }, (_, i) => `$${i + 1}`).join(', ');

export class PostgresFleetStore implements FleetStore {
  readonly consents: ConsentQueue;
  readonly #store: PostgresStore;

  private constructor(store: PostgresStore) {
    this.#store = store;
    this.consents = new PostgresConsentQueue(store);
  }

  static async open(store: PostgresStore): Promise<PostgresFleetStore> {
    await store.transaction(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock(7268033)');
      await c.query(FLEET_MIGRATIONS_TABLE);
      const applied = new Set(
        (await c.query('SELECT version FROM fleet_schema_migrations')).rows.map((r) => num(r.version)),
      );
      for (const m of POSTGRES_FLEET_MIGRATIONS) {
        if (applied.has(m.version)) continue;
        await c.query(m.sql);
        await c.query('INSERT INTO fleet_schema_migrations (version, applied_at_ms) VALUES ($1, $2)', [
          m.version,
          Date.now(),
        ]);
      }
    });
    return new PostgresFleetStore(store);
  }

  addRobot(robot: RobotRecord, key: ApiKeyRecord, audit: AuditEntryBuilder): Promise<AddRobotResult> {
    return this.#store.transaction(async (c, appendAudit): Promise<AddRobotResult> => {
      const inserted = await c.query(
        `INSERT INTO fleet_robots (${ROBOT_COLUMNS}) VALUES (${marks(8)}) ON CONFLICT DO NOTHING RETURNING robot_id`,
        robotValues(robot),
      );
      if (inserted.rowCount !== 1) return { added: false };
      await c.query(
        'INSERT INTO api_keys (id, tenant_id, scope, key_hash, created_at_ms, revoked_at_ms) VALUES ($1, $2, $3, $4, $5, $6)',
        [key.id, key.tenantId, key.scope, key.keyHashHex, key.createdAtMs, key.revokedAtMs],
      );
      return { added: true, audit: await appendAudit(audit) };
    });
  }

  async getRobot(tenantId: string, robotId: string): Promise<RobotRecord | undefined> {
    const [row] = await this.#store.queryRows(
      'SELECT * FROM fleet_robots WHERE tenant_id = $1 AND robot_id = $2',
      [tenantId, robotId],
    );
    return row && toRobot(row);
  }

  async listRobots(tenantId: string): Promise<RobotRecord[]> {
    const rows = await this.#store.queryRows(
      'SELECT * FROM fleet_robots WHERE tenant_id = $1 ORDER BY robot_id',
      [tenantId],
    );
    return rows.map(toRobot);
  }

  retireRobot(
    tenantId: string,
    robotId: string,
    nowMs: number,
    audit: AuditEntryBuilder,
  ): Promise<AuditRecord | undefined> {
    return this.#store.transaction(async (c, appendAudit) => {
      const res = await c.query(
        `UPDATE fleet_robots SET retired_at_ms = $1
          WHERE tenant_id = $2 AND robot_id = $3 AND retired_at_ms IS NULL RETURNING edge_key_id`,
        [nowMs, tenantId, robotId],
      );
      const row = res.rows[0] as { edge_key_id: string } | undefined;
      if (!row) return undefined;
      await c.query('UPDATE api_keys SET revoked_at_ms = $1 WHERE id = $2 AND revoked_at_ms IS NULL', [
        nowMs,
        row.edge_key_id,
      ]);
      return appendAudit(audit);
    });
  }

  putOperatorKey(key: OperatorKeyRecord, audit: AuditEntryBuilder): Promise<AuditRecord> {
    return this.#store.transaction(async (c, appendAudit) => {
      await c.query(
        `INSERT INTO fleet_operator_keys (tenant_id, operator_id, kid, public_key, created_at_ms, retired_at_ms)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (tenant_id, operator_id) DO UPDATE SET kid = excluded.kid, public_key = excluded.public_key,
           created_at_ms = excluded.created_at_ms, retired_at_ms = excluded.retired_at_ms`,
        [key.tenantId, key.operatorId, key.kid, key.publicKey, key.createdAtMs, key.retiredAtMs],
      );
      return appendAudit(audit);
    });
  }

  async listOperatorKeys(tenantId: string): Promise<OperatorKeyRecord[]> {
    const rows = await this.#store.queryRows(
      'SELECT * FROM fleet_operator_keys WHERE tenant_id = $1 ORDER BY operator_id',
      [tenantId],
    );
    return rows.map(toOperatorKey);
  }

  async chainState(tenantId: string, robotId: string): Promise<EdgeChainState> {
    const [row] = await this.#store.queryRows(
      'SELECT * FROM fleet_edge_chains WHERE tenant_id = $1 AND robot_id = $2',
      [tenantId, robotId],
    );
    return toChainState(row);
  }

  appendEdgeRecords(
    tenantId: string,
    robotId: string,
    records: EdgeRecordWrite[],
  ): Promise<EdgeAppendResult> {
    return this.#store.transaction(async (c, appendAudit): Promise<EdgeAppendResult> => {
      await c.query(
        `INSERT INTO fleet_edge_chains (tenant_id, robot_id, acknowledged, head_digest) VALUES ($1, $2, 0, $3)
         ON CONFLICT DO NOTHING`,
        [tenantId, robotId, EMPTY_CHAIN.headDigest],
      );
      const locked = await c.query(
        'SELECT * FROM fleet_edge_chains WHERE tenant_id = $1 AND robot_id = $2 FOR UPDATE',
        [tenantId, robotId],
      );
      const state = toChainState(locked.rows[0]);
      const first = records[0]?.index ?? 0;
      const last = records.at(-1)?.index ?? -1;
      const stored = new Map<number, string>();
      if (first < state.acknowledged) {
        const rows = await c.query(
          `SELECT record_index, record_digest FROM fleet_edge_records
            WHERE tenant_id = $1 AND robot_id = $2 AND record_index BETWEEN $3 AND $4`,
          [tenantId, robotId, first, last],
        );
        for (const row of rows.rows) stored.set(num(row.record_index), String(row.record_digest));
      }
      const plan = planEdgeAppend(state, records, stored, toCommandHistory(locked.rows[0]));
      if (plan.refused) return { status: 'refused', refusal: plan.refused, state };
      const audits: AuditRecord[] = [];
      for (const r of plan.fresh) {
        const audit = await appendAudit(r.audit);
        await c.query(
          `INSERT INTO fleet_edge_records (tenant_id, robot_id, record_index, record_digest, audit_index)
           VALUES ($1, $2, $3, $4, $5)`,
          [tenantId, robotId, r.index, r.digest, audit.index],
        );
        audits.push(audit);
      }
      if (plan.fresh.length > 0) {
        await c.query(
          `UPDATE fleet_edge_chains SET acknowledged = $1, head_digest = $2, last_command_seq = $3,
             last_command_epoch = $4 WHERE tenant_id = $5 AND robot_id = $6`,
          [
            plan.next.acknowledged,
            plan.next.headDigest,
            plan.nextHistory.lastSeq ?? null,
            plan.nextHistory.lastEpoch ?? null,
            tenantId,
            robotId,
          ],
        );
      }
      return {
        status: 'accepted',
        stored: plan.fresh.length,
        duplicates: plan.duplicates,
        state: plan.next,
        audits,
      };
    });
  }
}
