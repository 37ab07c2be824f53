/**
 * The fleet store on the embedded SQLite store: every write is one write of the platform store's
 * group-commit queue (`runWrite`), so a chain check and the records it admits are one atomic, durable step
 * (the queue has a single writer, which is also the chain lock).
 */
import type { ConsentQueue } from './consent-queue.js';
import { planEdgeAppend } from './fleet-chain.js';
import { SqliteConsentQueue } from './sqlite-consent-queue.js';
import { robotValues, toChainState, toCommandHistory, toOperatorKey, toRobot } from './fleet-rows.js';
import { FLEET_MIGRATIONS_TABLE, ROBOT_COLUMNS, SQLITE_FLEET_MIGRATIONS } from './fleet-schema.js';
import type {
  AddRobotResult,
  EdgeAppendResult,
  EdgeChainState,
  EdgeRecordWrite,
  FleetStore,
  OperatorKeyRecord,
  RobotRecord,
} from './fleet-store.js';
import type { ApiKeyRecord, AuditRecord } from './records.js';
import { type Row, num } from './row-mappers.js';
import type { SqliteStore } from './sqlite-store.js';
import type { AuditEntryBuilder } from './store.js';
import { preparedOnce } from './sqlite-prepared.js';

export class SqliteFleetStore implements FleetStore {
  readonly consents: ConsentQueue;
  readonly #store: SqliteStore;

  private constructor(store: SqliteStore) {
    this.#store = store;
    this.consents = new SqliteConsentQueue(store);
  }

  static async open(store: SqliteStore): Promise<SqliteFleetStore> {
    await store.runWrite(({ db }) => {
      db.exec(FLEET_MIGRATIONS_TABLE);
      const applied = new Set(
        (preparedOnce(db, 'SELECT version FROM fleet_schema_migrations').all() as Row[]).map((r) =>
          num(r.version),
        ),
      );
      for (const m of SQLITE_FLEET_MIGRATIONS) {
        if (applied.has(m.version)) continue;
        db.exec(m.sql);
        preparedOnce(db, 'INSERT INTO fleet_schema_migrations (version, applied_at_ms) VALUES (?, ?)').run(
          m.version,
          Date.now(),
        );
      }
    });
    return new SqliteFleetStore(store);
  }

  addRobot(robot: RobotRecord, key: ApiKeyRecord, audit: AuditEntryBuilder): Promise<AddRobotResult> {
    return this.#store.runWrite(({ db, appendAudit }): AddRobotResult => {
      const taken = preparedOnce(db, 'SELECT 1 FROM fleet_robots WHERE tenant_id = ? AND robot_id = ?').get(
        robot.tenantId,
        robot.robotId,
      );
      if (taken) return { added: false };
      preparedOnce(
        db,
        'INSERT INTO api_keys (id, tenant_id, scope, key_hash, created_at_ms, revoked_at_ms) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(key.id, key.tenantId, key.scope, key.keyHashHex, key.createdAtMs, key.revokedAtMs);
      preparedOnce(db, `INSERT INTO fleet_robots (${ROBOT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(
        ...robotValues(robot),
      );
      return { added: true, audit: appendAudit(audit) };
    });
  }

  async getRobot(tenantId: string, robotId: string): Promise<RobotRecord | undefined> {
    const row = preparedOnce(
      this.#store.reader,
      'SELECT * FROM fleet_robots WHERE tenant_id = ? AND robot_id = ?',
    ).get(tenantId, robotId) as Row | undefined;
    return row && toRobot(row);
  }

  async listRobots(tenantId: string): Promise<RobotRecord[]> {
    const rows = preparedOnce(
      this.#store.reader,
      'SELECT * FROM fleet_robots WHERE tenant_id = ? ORDER BY robot_id',
    ).all(tenantId) as Row[];
    return rows.map(toRobot);
  }

  retireRobot(
    tenantId: string,
    robotId: string,
    nowMs: number,
    audit: AuditEntryBuilder,
  ): Promise<AuditRecord | undefined> {
    return this.#store.runWrite(({ db, appendAudit }) => {
      const row = preparedOnce(
        db,
        'SELECT edge_key_id FROM fleet_robots WHERE tenant_id = ? AND robot_id = ? AND retired_at_ms IS NULL',
      ).get(tenantId, robotId) as Row | undefined;
      if (!row) return undefined;
      preparedOnce(db, 'UPDATE fleet_robots SET retired_at_ms = ? WHERE tenant_id = ? AND robot_id = ?').run(
        nowMs,
        tenantId,
        robotId,
      );
      preparedOnce(db, 'UPDATE api_keys SET revoked_at_ms = ? WHERE id = ? AND revoked_at_ms IS NULL').run(
        nowMs,
        String(row.edge_key_id),
      );
      return appendAudit(audit);
    });
  }

  putOperatorKey(key: OperatorKeyRecord, audit: AuditEntryBuilder): Promise<AuditRecord> {
    return this.#store.runWrite(({ db, appendAudit }) => {
      preparedOnce(
        db,
        `INSERT INTO fleet_operator_keys (tenant_id, operator_id, kid, public_key, created_at_ms, retired_at_ms)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (tenant_id, operator_id) DO UPDATE SET kid = excluded.kid, public_key = excluded.public_key,
           created_at_ms = excluded.created_at_ms, retired_at_ms = excluded.retired_at_ms`,
      ).run(key.tenantId, key.operatorId, key.kid, key.publicKey, key.createdAtMs, key.retiredAtMs);
      return appendAudit(audit);
    });
  }

  async listOperatorKeys(tenantId: string): Promise<OperatorKeyRecord[]> {
    const rows = preparedOnce(
      this.#store.reader,
      'SELECT * FROM fleet_operator_keys WHERE tenant_id = ? ORDER BY operator_id',
    ).all(tenantId) as Row[];
    return rows.map(toOperatorKey);
  }

  async chainState(tenantId: string, robotId: string): Promise<EdgeChainState> {
    return toChainState(
      preparedOnce(
        this.#store.reader,
        'SELECT * FROM fleet_edge_chains WHERE tenant_id = ? AND robot_id = ?',
      ).get(tenantId, robotId) as Row | undefined,
    );
  }

  appendEdgeRecords(
    tenantId: string,
    robotId: string,
    records: EdgeRecordWrite[],
  ): Promise<EdgeAppendResult> {
    return this.#store.runWrite(({ db, appendAudit }): EdgeAppendResult => {
      const chain = preparedOnce(
        db,
        'SELECT * FROM fleet_edge_chains WHERE tenant_id = ? AND robot_id = ?',
      ).get(tenantId, robotId) as Row | undefined;
      const state = toChainState(chain);
      const first = records[0]?.index ?? 0;
      const last = records.at(-1)?.index ?? -1;
      const stored = new Map<number, string>();
      if (first < state.acknowledged) {
        const rows = preparedOnce(
          db,
          `SELECT record_index, record_digest FROM fleet_edge_records
              WHERE tenant_id = ? AND robot_id = ? AND record_index BETWEEN ? AND ?`,
        ).all(tenantId, robotId, first, last) as Row[];
        for (const row of rows) stored.set(num(row.record_index), String(row.record_digest));
      }
      const plan = planEdgeAppend(state, records, stored, toCommandHistory(chain));
      if (plan.refused) return { status: 'refused', refusal: plan.refused, state };
      const insert = preparedOnce(
        db,
        `INSERT INTO fleet_edge_records (tenant_id, robot_id, record_index, record_digest, audit_index)
         VALUES (?, ?, ?, ?, ?)`,
      );
      const audits: AuditRecord[] = [];
      for (const r of plan.fresh) {
        const audit = appendAudit(r.audit);
        insert.run(tenantId, robotId, r.index, r.digest, audit.index);
        audits.push(audit);
      }
      if (plan.fresh.length > 0) {
        preparedOnce(
          db,
          `INSERT INTO fleet_edge_chains (tenant_id, robot_id, acknowledged, head_digest, last_command_seq,
             last_command_epoch) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (tenant_id, robot_id) DO UPDATE SET acknowledged = excluded.acknowledged,
             head_digest = excluded.head_digest, last_command_seq = excluded.last_command_seq,
             last_command_epoch = excluded.last_command_epoch`,
        ).run(
          tenantId,
          robotId,
          plan.next.acknowledged,
          plan.next.headDigest,
          plan.nextHistory.lastSeq ?? null,
          plan.nextHistory.lastEpoch ?? null,
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
