/**
 * The consent queue on the shared PostgreSQL store. A grant is one conditional UPDATE (state = 'waiting'),
 * so two replicas relaying two tokens for one request store exactly one; taking the granted tokens is one
 * UPDATE … RETURNING, so two replicas answering the same edge never hand it the same token twice.
 */
import type { ConsentGrantWrite, ConsentQueue, ConsentRequestRecord } from './consent-queue.js';
import { consentRequestValues, toConsentRequest } from './fleet-rows.js';
import { CONSENT_REQUEST_COLUMNS, REOPEN_CONSENT_REQUEST as REOPEN } from './fleet-schema.js';
import type { PostgresStore } from './postgres-store.js';
import type { AuditRecord } from './records.js';
import type { AuditEntryBuilder } from './store.js';

export class PostgresConsentQueue implements ConsentQueue {
  readonly #store: PostgresStore;

  constructor(store: PostgresStore) {
    this.#store = store;
  }

  put(record: ConsentRequestRecord, audit: AuditEntryBuilder): Promise<AuditRecord | undefined> {
    return this.#store.transaction(async (c, appendAudit) => {
      const inserted = await c.query(
        `INSERT INTO fleet_consent_requests (${CONSENT_REQUEST_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (tenant_id, robot_id, intent_digest) DO UPDATE SET ${REOPEN}`,
        consentRequestValues(record),
      );
      return inserted.rowCount === 1 ? appendAudit(audit) : undefined;
    });
  }

  async listWaiting(tenantId: string, nowMs: number, robotId?: string): Promise<ConsentRequestRecord[]> {
    const rows = await this.#store.queryRows(
      `SELECT * FROM fleet_consent_requests
        WHERE tenant_id = $1 AND state = 'waiting' AND deadline_ms > $2 AND ($3::text IS NULL OR robot_id = $3)
        ORDER BY created_at_ms, robot_id, intent_digest`,
      [tenantId, nowMs, robotId ?? null],
    );
    return rows.map(toConsentRequest);
  }

  async get(
    tenantId: string,
    robotId: string,
    intentDigest: string,
  ): Promise<ConsentRequestRecord | undefined> {
    const [row] = await this.#store.queryRows(
      'SELECT * FROM fleet_consent_requests WHERE tenant_id = $1 AND robot_id = $2 AND intent_digest = $3',
      [tenantId, robotId, intentDigest],
    );
    return row && toConsentRequest(row);
  }

  grant(
    tenantId: string,
    robotId: string,
    intentDigest: string,
    grant: ConsentGrantWrite,
    audit: AuditEntryBuilder,
  ): Promise<AuditRecord | undefined> {
    return this.#store.transaction(async (c, appendAudit) => {
      const updated = await c.query(
        `UPDATE fleet_consent_requests SET state = 'granted', token = $1, operator_id = $2, granted_at_ms = $3
          WHERE tenant_id = $4 AND robot_id = $5 AND intent_digest = $6 AND state = 'waiting' AND deadline_ms > $3`,
        [JSON.stringify(grant.token), grant.operatorId, grant.nowMs, tenantId, robotId, intentDigest],
      );
      return updated.rowCount === 1 ? appendAudit(audit) : undefined;
    });
  }

  close(
    tenantId: string,
    robotId: string,
    intentDigest: string,
    audit: AuditEntryBuilder,
  ): Promise<AuditRecord | undefined> {
    return this.#store.transaction(async (c, appendAudit) => {
      const updated = await c.query(
        `UPDATE fleet_consent_requests SET state = 'closed'
          WHERE tenant_id = $1 AND robot_id = $2 AND intent_digest = $3 AND state = 'waiting'`,
        [tenantId, robotId, intentDigest],
      );
      return updated.rowCount === 1 ? appendAudit(audit) : undefined;
    });
  }

  takeGranted(tenantId: string, robotId: string, nowMs: number): Promise<unknown[]> {
    return this.#store.transaction(async (c) => {
      const res = await c.query(
        `UPDATE fleet_consent_requests SET state = 'delivered', delivered_at_ms = $1
          WHERE tenant_id = $2 AND robot_id = $3 AND state = 'granted' RETURNING token`,
        [nowMs, tenantId, robotId],
      );
      return (res.rows as { token: string }[]).map((r) => JSON.parse(r.token) as unknown);
    });
  }
}
