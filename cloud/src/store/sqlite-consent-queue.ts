/** The consent queue on the embedded SQLite store; writes go through the platform store's single writer. */
import type { ConsentGrantWrite, ConsentQueue, ConsentRequestRecord } from './consent-queue.js';
import { consentRequestValues, toConsentRequest } from './fleet-rows.js';
import { CONSENT_REQUEST_COLUMNS, REOPEN_CONSENT_REQUEST as REOPEN } from './fleet-schema.js';
import type { AuditRecord } from './records.js';
import type { Row } from './row-mappers.js';
import type { SqliteStore } from './sqlite-store.js';
import type { AuditEntryBuilder } from './store.js';
import { preparedOnce } from './sqlite-prepared.js';

export class SqliteConsentQueue implements ConsentQueue {
  readonly #store: SqliteStore;

  constructor(store: SqliteStore) {
    this.#store = store;
  }

  put(record: ConsentRequestRecord, audit: AuditEntryBuilder): Promise<AuditRecord | undefined> {
    return this.#store.runWrite(({ db, appendAudit }) => {
      const inserted = preparedOnce(
        db,
        `INSERT INTO fleet_consent_requests (${CONSENT_REQUEST_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (tenant_id, robot_id, intent_digest) DO UPDATE SET ${REOPEN}`,
      ).run(...consentRequestValues(record));
      return inserted.changes === 1 ? appendAudit(audit) : undefined;
    });
  }

  async listWaiting(tenantId: string, nowMs: number, robotId?: string): Promise<ConsentRequestRecord[]> {
    const rows = preparedOnce(
      this.#store.reader,
      `SELECT * FROM fleet_consent_requests
          WHERE tenant_id = ? AND state = 'waiting' AND deadline_ms > ? AND (? IS NULL OR robot_id = ?)
          ORDER BY created_at_ms, robot_id, intent_digest`,
    ).all(tenantId, nowMs, robotId ?? null, robotId ?? null) as Row[];
    return rows.map(toConsentRequest);
  }

  async get(
    tenantId: string,
    robotId: string,
    intentDigest: string,
  ): Promise<ConsentRequestRecord | undefined> {
    const row = preparedOnce(
      this.#store.reader,
      'SELECT * FROM fleet_consent_requests WHERE tenant_id = ? AND robot_id = ? AND intent_digest = ?',
    ).get(tenantId, robotId, intentDigest) as Row | undefined;
    return row && toConsentRequest(row);
  }

  grant(
    tenantId: string,
    robotId: string,
    intentDigest: string,
    grant: ConsentGrantWrite,
    audit: AuditEntryBuilder,
  ): Promise<AuditRecord | undefined> {
    return this.#store.runWrite(({ db, appendAudit }) => {
      const updated = preparedOnce(
        db,
        `UPDATE fleet_consent_requests SET state = 'granted', token = ?, operator_id = ?, granted_at_ms = ?
            WHERE tenant_id = ? AND robot_id = ? AND intent_digest = ? AND state = 'waiting' AND deadline_ms > ?`,
      ).run(
        JSON.stringify(grant.token),
        grant.operatorId,
        grant.nowMs,
        tenantId,
        robotId,
        intentDigest,
        grant.nowMs,
      );
      return updated.changes === 1 ? appendAudit(audit) : undefined;
    });
  }

  close(
    tenantId: string,
    robotId: string,
    intentDigest: string,
    audit: AuditEntryBuilder,
  ): Promise<AuditRecord | undefined> {
    return this.#store.runWrite(({ db, appendAudit }) => {
      const updated = preparedOnce(
        db,
        `UPDATE fleet_consent_requests SET state = 'closed'
            WHERE tenant_id = ? AND robot_id = ? AND intent_digest = ? AND state = 'waiting'`,
      ).run(tenantId, robotId, intentDigest);
      return updated.changes === 1 ? appendAudit(audit) : undefined;
    });
  }

  takeGranted(tenantId: string, robotId: string, nowMs: number): Promise<unknown[]> {
    return this.#store.runWrite(({ db }) => {
      const rows = preparedOnce(
        db,
        `UPDATE fleet_consent_requests SET state = 'delivered', delivered_at_ms = ?
            WHERE tenant_id = ? AND robot_id = ? AND state = 'granted' RETURNING token`,
      ).all(nowMs, tenantId, robotId) as Row[];
      return rows.map((r) => JSON.parse(String(r.token)) as unknown);
    });
  }
}
