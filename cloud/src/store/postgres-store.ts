/**
 * The shared store: PostgreSQL through `pg`, for several cloud replicas behind a load balancer. Every
 * race is settled by row locks inside a transaction (READ COMMITTED): `budget_accounts` serialises one
 * agent's reservations, `audit_head` hands out audit indices in commit order. Lock order is always
 * budget account → audit head, so two transactions never wait on each other in a cycle.
 */
import { canonicalize, PentagateError } from '@pentagate/protocol';
import pg from 'pg';
import { PostgresAgents } from './agents/postgres-agents.js';
import { PostgresAudit } from './audit/postgres-audit.js';
import { planWindowRead, windowAfterExpiry } from './budget/budget-window.js';
import { signedEnvelopeOf } from './decisions/decision-envelope.js';
import { PostgresPolicies } from './policies/postgres-policies.js';
import type { PostgresClient, PostgresQuery } from './postgres-query.js';
import { POSTGRES_MIGRATIONS } from './postgres-schema.js';
import type {
  AgentRecord,
  ApiKeyRecord,
  AuditRecord,
  CallHistoryRecord,
  DecisionRecord,
  LedgerTotals,
  PolicyRecord,
  ReservationRecord,
  ReservationState,
  SigningKeyRecord,
  TenantRecord,
} from './records.js';
import { type Row, num, toCall, toDecision, toReservation } from './row-mappers.js';
import type {
  AgentRegistration,
  AuditEntryBuilder,
  DecisionCommit,
  DecisionWrite,
  RegisterAgentResult,
  RelevantCallsQuery,
  Store,
} from './store.js';
import { PostgresSigningKeys } from './signing-keys/postgres-signing-keys.js';
import { StoreError } from './store-error.js';
import { PostgresTenants } from './tenants/postgres-tenants.js';

export interface PostgresStoreOptions {
  /** `postgres://user@host:port/db`. */
  url: string;
  /** A schema to create (if missing) and use instead of `public`; tests use one per run. */
  schema?: string;
  maxConnections?: number;
}

type Client = PostgresClient;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;
  /** The schema this store works in, when not `public`. */
  readonly schema: string | undefined;
  readonly #pool: pg.Pool;
  #closed = false;
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #audit: PostgresAudit;
  readonly #tenants: PostgresTenants;
  readonly #agents: PostgresAgents;
  readonly #signingKeys: PostgresSigningKeys;
  readonly #policies: PostgresPolicies;

  private constructor(pool: pg.Pool, schema: string | undefined) {
    this.#pool = pool;
    this.schema = schema;
    const query: PostgresQuery = (sql, params) => this.#query(sql, params);
    this.#audit = new PostgresAudit(query);
    this.#tenants = new PostgresTenants(query);
    this.#agents = new PostgresAgents(query, this.#audit);
    this.#signingKeys = new PostgresSigningKeys(query);
    this.#policies = new PostgresPolicies(query);
  }

  /** Connects, creates the schema if asked, and applies pending migrations under an advisory lock. */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) {
      throw new StoreError(
        `PostgreSQL schema: expected ${SCHEMA_NAME}, got ${JSON.stringify(options.schema)}`,
      );
    }
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.maxConnections ?? 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    // an idle client that loses its connection must not crash the process; the next query reports it
    pool.on('error', () => {});
    const store = new PostgresStore(pool, options.schema);
    try {
      if (options.schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`);
      await store.#tx(async (c) => {
        await c.query('SELECT pg_advisory_xact_lock(7268031)');
        await c.query(
          'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at_ms BIGINT NOT NULL)',
        );
        const applied = new Set(
          (await c.query('SELECT version FROM schema_migrations')).rows.map((r) => num(r.version)),
        );
        for (const m of POSTGRES_MIGRATIONS) {
          if (applied.has(m.version)) continue;
          await c.query(m.sql);
          await c.query('INSERT INTO schema_migrations (version, applied_at_ms) VALUES ($1, $2)', [
            m.version,
            Date.now(),
          ]);
        }
      });
    } catch (err) {
      await pool.end().catch(() => {});
      throw err instanceof StoreError
        ? err
        : new StoreError(`PostgreSQL ${redactUrl(options.url)}: ${(err as Error).message}`);
    }
    return store;
  }

  /** Tracks an operation so close() waits for it: a write begun before close commits before the pool ends. */
  #track<T>(operation: Promise<T>): Promise<T> {
    this.#inFlight.add(operation);
    const forget = () => this.#inFlight.delete(operation);
    operation.then(forget, forget);
    return operation;
  }

  #query(sql: string, params: unknown[] = []): Promise<Row[]> {
    if (this.#closed) return Promise.reject(new StoreError('the store is closed'));
    return this.#track(this.#queryNow(sql, params));
  }

  async #queryNow(sql: string, params: unknown[]): Promise<Row[]> {
    try {
      return (await this.#pool.query(sql, params)).rows as Row[];
    } catch (err) {
      throw new StoreError(`PostgreSQL: ${(err as Error).message}`);
    }
  }

  #tx<T>(fn: (client: Client) => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new StoreError('the store is closed'));
    return this.#track(this.#txNow(fn));
  }

  async #txNow<T>(fn: (client: Client) => Promise<T>): Promise<T> {
    let client: Client;
    try {
      client = await this.#pool.connect();
    } catch (err) {
      throw new StoreError(`PostgreSQL: ${(err as Error).message}`);
    }
    try {
      await client.query('BEGIN');
      const value = await fn(client);
      await client.query('COMMIT');
      return value;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      if (err instanceof PentagateError) throw err;
      throw new StoreError(`PostgreSQL: ${(err as Error).message}`);
    } finally {
      client.release();
    }
  }

  /**
   * For stores composed on this one (the kernel's, cloud/src/kernel/store/): runs `fn` in one transaction
   * with an audit appender that takes the next index under the audit_head lock of that transaction.
   */
  transaction<T>(
    fn: (client: Client, appendAudit: (build: AuditEntryBuilder) => Promise<AuditRecord>) => Promise<T>,
  ): Promise<T> {
    return this.#tx((c) => fn(c, (build) => this.#audit.appendAudit(c, build)));
  }

  /** One query outside a transaction, for reads by composed stores. */
  queryRows(sql: string, params: unknown[] = []): Promise<Row[]> {
    return this.#query(sql, params);
  }

  async createTenant(t: TenantRecord): Promise<void> {
    await this.#tenants.createTenant(t);
  }

  async getTenant(id: string): Promise<TenantRecord | undefined> {
    return this.#tenants.getTenant(id);
  }

  async listTenants(): Promise<TenantRecord[]> {
    return this.#tenants.listTenants();
  }

  async insertApiKey(k: ApiKeyRecord): Promise<void> {
    await this.#tenants.insertApiKey(k);
  }

  async findApiKeyByHash(keyHashHex: string): Promise<ApiKeyRecord | undefined> {
    return this.#tenants.findApiKeyByHash(keyHashHex);
  }

  async listApiKeys(tenantId: string): Promise<ApiKeyRecord[]> {
    return this.#tenants.listApiKeys(tenantId);
  }

  async revokeApiKey(tenantId: string, keyId: string, nowMs: number): Promise<boolean> {
    return this.#tenants.revokeApiKey(tenantId, keyId, nowMs);
  }

  async registerAgent(r: AgentRegistration, audit: AuditEntryBuilder): Promise<RegisterAgentResult> {
    return this.#tx((c) => this.#agents.registerAgent(c, r, audit));
  }

  async findAgentByLobe(tenantId: string, lobeName: string): Promise<AgentRecord | undefined> {
    return this.#agents.findAgentByLobe(tenantId, lobeName);
  }

  async findAgentById(tenantId: string, agentId: string): Promise<AgentRecord | undefined> {
    return this.#agents.findAgentById(tenantId, agentId);
  }

  async ledgerTotals(
    tenantId: string,
    agentId: string,
    windowMs: number,
    nowMs: number,
  ): Promise<LedgerTotals> {
    // Outside a transaction: the account and what expired from it in ONE statement (one snapshot), so a
    // settlement committing in between cannot be counted on one side and not the other.
    const cutoffMs = nowMs - windowMs;
    const [row] = await this.#query(READ_WINDOW_SQL, [tenantId, agentId, windowMs, cutoffMs]);
    const account = row && {
      cutoffMs: num(row.cutoff_ms),
      spent: num(row.spent),
      reserved: num(row.reserved),
    };
    if (planWindowRead(account, cutoffMs).kind === 'exact') {
      const [exact] = await this.#query(LEDGER_TOTALS_SQL, [tenantId, agentId, cutoffMs]);
      return { spent: num(exact!.spent), reserved: num(exact!.reserved) };
    }
    return windowAfterExpiry(account!, {
      spent: num(row!.expired_spent),
      reserved: num(row!.expired_reserved),
    });
  }

  async settleReservation(
    tenantId: string,
    reservationId: string,
    state: Exclude<ReservationState, 'reserved'>,
  ): Promise<boolean> {
    const rows = await this.#query(
      `UPDATE budget_reservations SET state = $1 WHERE id = $2 AND tenant_id = $3 AND state = 'reserved' RETURNING id`,
      [state, reservationId, tenantId],
    );
    return rows.length === 1;
  }

  async getReservation(tenantId: string, reservationId: string): Promise<ReservationRecord | undefined> {
    const [row] = await this.#query('SELECT * FROM budget_reservations WHERE id = $1 AND tenant_id = $2', [
      reservationId,
      tenantId,
    ]);
    return row && toReservation(row);
  }

  async recentCalls(
    tenantId: string,
    agentId: string,
    sinceMs: number,
    limit: number,
  ): Promise<CallHistoryRecord[]> {
    const rows = await this.#query(
      `SELECT * FROM call_history WHERE tenant_id = $1 AND agent_id = $2 AND at_ms >= $3
       ORDER BY at_ms DESC, seq DESC LIMIT $4`,
      [tenantId, agentId, sinceMs, limit],
    );
    return rows.map(toCall).reverse();
  }

  async relevantCalls(
    tenantId: string,
    agentId: string,
    q: RelevantCallsQuery,
  ): Promise<CallHistoryRecord[]> {
    const rows = await this.#query(
      `SELECT * FROM (
         SELECT * FROM call_history WHERE tenant_id = $1 AND agent_id = $2 AND fingerprint = $3 AND at_ms >= $4
         UNION
         SELECT * FROM call_history WHERE tenant_id = $1 AND agent_id = $2 AND near_fingerprint = $5 AND at_ms >= $4
         UNION
         SELECT * FROM call_history
          WHERE tenant_id = $1 AND agent_id = $2 AND tool_key = $6 AND approved = false AND at_ms >= $7
       ) AS relevant ORDER BY at_ms DESC, seq DESC LIMIT $8`,
      [
        tenantId,
        agentId,
        q.fingerprint,
        q.repeatSinceMs,
        q.nearFingerprint,
        q.toolName.toLowerCase(),
        q.deniedSinceMs,
        q.limit,
      ],
    );
    return rows.map(toCall).reverse();
  }

  async commitDecision<T>(write: DecisionWrite<T>): Promise<DecisionCommit<T>> {
    return this.#tx(async (c) => {
      const r = write.reservation;
      let ledger: LedgerTotals = { spent: 0, reserved: 0 };
      if (r) {
        await c.query(
          'INSERT INTO budget_accounts (tenant_id, agent_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
          [write.tenantId, write.agentId],
        );
        // the row lock makes the read-check-insert below one step for every replica (ARCHITECTURE.md §7)
        await c.query('SELECT 1 FROM budget_accounts WHERE tenant_id = $1 AND agent_id = $2 FOR UPDATE', [
          write.tenantId,
          write.agentId,
        ]);
        ledger = await advanceWindow(
          async (sql, params) => (await c.query(sql, params)).rows as Row[],
          write.tenantId,
          write.agentId,
          r.windowMs,
          write.nowMs,
        );
      }
      const reserved = !r || ledger.spent + ledger.reserved + r.amount <= r.limit;
      const index = await this.#audit.nextAuditIndex(c);
      const { parts, result } = write.build({ index, reserved, ledger });
      const d = parts.decision;
      if (r && reserved) {
        await c.query(
          `INSERT INTO budget_reservations (id, tenant_id, agent_id, amount, state, created_at_ms, decision_id)
           VALUES ($1, $2, $3, $4, 'reserved', $5, $6)`,
          [r.id, write.tenantId, write.agentId, r.amount, write.nowMs, d.id],
        );
      }
      const envelope = signedEnvelopeOf(parts);
      const audit = await this.#audit.insertAudit(c, parts.entry, index);
      await c.query(
        `INSERT INTO decisions (id, tenant_id, agent_id, outcome, approved, created_at_ms, subject_digest, policy_digest,
         reserved_amount, audit_index, verdict) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          d.id,
          d.tenantId,
          d.agentId,
          d.outcome,
          d.approved,
          d.createdAtMs,
          d.subjectDigest,
          d.policyDigest,
          d.reservedAmount,
          index,
          canonicalize(d.verdict),
        ],
      );
      const call = parts.call;
      if (call) {
        await c.query(
          `INSERT INTO call_history (decision_id, tenant_id, agent_id, tool_name, tool_key, fingerprint, near_fingerprint,
           at_ms, approved, violations) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [
            d.id,
            write.tenantId,
            write.agentId,
            call.toolName,
            call.toolName.toLowerCase(),
            call.fingerprint,
            call.nearFingerprint,
            call.atMs,
            call.approved,
            JSON.stringify(call.violations),
          ],
        );
      }
      const decision: DecisionRecord = { ...d, auditIndex: index, envelope };
      return { audit, decision, reserved: reserved && r !== undefined, result };
    });
  }

  async getDecision(tenantId: string, decisionId: string): Promise<DecisionRecord | undefined> {
    const [row] = await this.#query(
      `SELECT d.*, a.entry AS audit_entry FROM decisions d JOIN audit_log a ON a.idx = d.audit_index
        WHERE d.id = $1 AND d.tenant_id = $2`,
      [decisionId, tenantId],
    );
    return row && toDecision(row);
  }

  async appendAudit(build: AuditEntryBuilder): Promise<AuditRecord> {
    return this.#tx((c) => this.#audit.appendAudit(c, build));
  }

  async auditSize(): Promise<number> {
    return this.#audit.auditSize();
  }

  async auditEntries(fromIndex: number, toIndex: number): Promise<AuditRecord[]> {
    return this.#audit.auditEntries(fromIndex, toIndex);
  }

  async auditLeafHashes(fromIndex: number, toIndex: number): Promise<Uint8Array[]> {
    return this.#audit.auditLeafHashes(fromIndex, toIndex);
  }

  async putSigningKey(k: SigningKeyRecord): Promise<boolean> {
    return this.#signingKeys.putSigningKey(k);
  }

  async listSigningKeys(): Promise<SigningKeyRecord[]> {
    return this.#signingKeys.listSigningKeys();
  }

  async putPolicy(p: PolicyRecord): Promise<boolean> {
    return this.#tx((c) => this.#policies.putPolicy(c, p));
  }

  async activePolicy(tenantId: string): Promise<PolicyRecord | undefined> {
    return this.#policies.activePolicy(tenantId);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.allSettled([...this.#inFlight]);
    await this.#pool.end();
  }
}

const LEDGER_TOTALS_SQL = `SELECT COALESCE(SUM(CASE WHEN state = 'committed' THEN amount END), 0) AS spent,
        COALESCE(SUM(CASE WHEN state = 'reserved' THEN amount END), 0) AS reserved
   FROM budget_reservations WHERE tenant_id = $1 AND agent_id = $2 AND created_at_ms > $3`;

/** The agent's account with the sums of the reservations created in (its cutoff, $4]. */
const READ_WINDOW_SQL = `SELECT w.cutoff_ms, w.spent, w.reserved,
        COALESCE(SUM(CASE WHEN r.state = 'committed' THEN r.amount END), 0) AS expired_spent,
        COALESCE(SUM(CASE WHEN r.state = 'reserved' THEN r.amount END), 0) AS expired_reserved
   FROM budget_windows w
   LEFT JOIN budget_reservations r ON r.tenant_id = w.tenant_id AND r.agent_id = w.agent_id
        AND r.created_at_ms > w.cutoff_ms AND r.created_at_ms <= $4
  WHERE w.tenant_id = $1 AND w.agent_id = $2 AND w.window_ms = $3
  GROUP BY w.cutoff_ms, w.spent, w.reserved`;

/**
 * The window's totals from the agent's running account (budget/budget-window.ts), inside the reservation's
 * transaction under the budget_accounts lock: the account row is locked, then moved to this window (or
 * opened with one exact sum). A clock behind the account's cutoff reads the exact sum and moves nothing.
 */
async function advanceWindow(
  query: (sql: string, params: unknown[]) => Promise<Row[]>,
  tenantId: string,
  agentId: string,
  windowMs: number,
  nowMs: number,
): Promise<LedgerTotals> {
  const cutoffMs = nowMs - windowMs;
  const [row] = await query(
    'SELECT cutoff_ms, spent, reserved FROM budget_windows WHERE tenant_id = $1 AND agent_id = $2 AND window_ms = $3 FOR UPDATE',
    [tenantId, agentId, windowMs],
  );
  const account = row && { cutoffMs: num(row.cutoff_ms), spent: num(row.spent), reserved: num(row.reserved) };
  const plan = planWindowRead(account, cutoffMs);
  if (plan.kind === 'exact') {
    const [exact] = await query(LEDGER_TOTALS_SQL, [tenantId, agentId, cutoffMs]);
    const totals = { spent: num(exact!.spent), reserved: num(exact!.reserved) };
    if (!account) {
      await query(
        `INSERT INTO budget_windows (tenant_id, agent_id, window_ms, cutoff_ms, spent, reserved)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [tenantId, agentId, windowMs, cutoffMs, totals.spent, totals.reserved],
      );
    }
    return totals;
  }
  if (plan.kind === 'current') return windowAfterExpiry(plan.account, undefined);
  const [e] = await query(`${LEDGER_TOTALS_SQL} AND created_at_ms <= $4`, [
    tenantId,
    agentId,
    plan.fromMs,
    cutoffMs,
  ]);
  const totals = windowAfterExpiry(plan.account, { spent: num(e!.spent), reserved: num(e!.reserved) });
  await query(
    `UPDATE budget_windows SET cutoff_ms = $1, spent = $2, reserved = $3
      WHERE tenant_id = $4 AND agent_id = $5 AND window_ms = $6`,
    [cutoffMs, totals.spent, totals.reserved, tenantId, agentId, windowMs],
  );
  return totals;
}

function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
