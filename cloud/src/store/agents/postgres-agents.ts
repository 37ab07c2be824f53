/**
 * Agent (lobe) registration and look-ups on PostgreSQL. Registering runs in the store's transaction and
 * inserts first (ON CONFLICT DO NOTHING): the unique indexes, not a prior read, decide between replicas
 * registering the same agent at once, and the loser then reads what the winner wrote.
 *
 * A registration joins the account of its agent_name's first registration (AgentRecord.accountId). Two
 * replicas registering two versions of a new name at once would each find no account and open one, so
 * registrations of one name take a per-name advisory lock first: the second waits and joins the first's.
 */
import { canonicalize } from '@pentagate/protocol';
import type { PostgresAudit } from '../audit/postgres-audit.js';
import type { PostgresClient, PostgresQuery } from '../postgres-query.js';
import type { AgentRecord } from '../records.js';
import { type Row, toAgent } from '../row-mappers.js';
import type { AgentRegistration, AuditEntryBuilder, RegisterAgentResult } from '../store.js';

export class PostgresAgents {
  readonly #query: PostgresQuery;
  readonly #audit: PostgresAudit;

  constructor(query: PostgresQuery, audit: PostgresAudit) {
    this.#query = query;
    this.#audit = audit;
  }

  async registerAgent(
    c: PostgresClient,
    r: AgentRegistration,
    audit: AuditEntryBuilder,
  ): Promise<RegisterAgentResult> {
    await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`agent:${r.tenantId}/${r.name}`]);
    const inserted = await c.query(
      `INSERT INTO agents (id, tenant_id, name, version, domain, lobe_name, created_at_ms, metadata, account_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, COALESCE((${ACCOUNT_OF_NAME_SQL}), $1)) ON CONFLICT DO NOTHING
       RETURNING account_id`,
      [r.id, r.tenantId, r.name, r.version, r.domain, r.lobeName, r.createdAtMs, canonicalize(r.metadata)],
    );
    if (inserted.rowCount === 1) {
      const accountId = (inserted.rows[0] as Row).account_id as string;
      return {
        status: 'created',
        agent: { ...r, accountId },
        audit: await this.#audit.appendAudit(c, audit),
      };
    }
    const existing = await c.query(
      'SELECT * FROM agents WHERE tenant_id = $1 AND name = $2 AND version = $3',
      [r.tenantId, r.name, r.version],
    );
    if (existing.rows[0]) return { status: 'existing', agent: toAgent(existing.rows[0] as Row) };
    const idTaken = await c.query('SELECT 1 FROM agents WHERE tenant_id = $1 AND id = $2', [
      r.tenantId,
      r.id,
    ]);
    return { status: 'conflict', field: idTaken.rowCount === 1 ? 'id' : 'lobeName' };
  }

  async findAgentByLobe(tenantId: string, lobeName: string): Promise<AgentRecord | undefined> {
    const [row] = await this.#query('SELECT * FROM agents WHERE tenant_id = $1 AND lobe_name = $2', [
      tenantId,
      lobeName,
    ]);
    return row && toAgent(row);
  }

  async findAgentById(tenantId: string, agentId: string): Promise<AgentRecord | undefined> {
    const [row] = await this.#query('SELECT * FROM agents WHERE tenant_id = $1 AND id = $2', [
      tenantId,
      agentId,
    ]);
    return row && toAgent(row);
  }
}

/** The account of the first registration of agent_name $3 in tenant $2 (none: this is the first). */
const ACCOUNT_OF_NAME_SQL = `SELECT account_id FROM agents WHERE tenant_id = $2 AND name = $3
  ORDER BY created_at_ms, id LIMIT 1`;
