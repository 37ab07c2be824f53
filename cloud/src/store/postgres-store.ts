/**
 * The shared store: PostgreSQL through `pg`, for several cloud replicas behind a load balancer. Every
 * race is settled by row locks inside a transaction (READ COMMITTED): `budget_accounts` serialises one
 * agent's reservations, `audit_head` hands out audit indices in commit order. Lock order is always
 * budget accounts (sorted; each with its window rows) → audit head, so two transactions never wait on
 * each other in a cycle (postgres-group-commit.ts says why, writer by writer).
 * Decisions are group-committed: one transaction per batch of a process's concurrent decisions, one
 * savepoint per decision (postgres-group-commit.ts).
 *
 * This class owns the pool, the migrations, the transactions, the decision batches and close(). The SQL
 * lives with its record family (tenants/, agents/, budget/, call-history/, decisions/, audit/,
 * signing-keys/, policies/), beside its SQLite twin; a family reads through the store's query and writes
 * inside a transaction the store opens.
 */
import pg from 'pg';
import { PostgresAgents } from './agents/postgres-agents.js';
import { PostgresAudit } from './audit/postgres-audit.js';
import { PostgresBudget } from './budget/postgres-budget.js';
import { PostgresCallHistory } from './call-history/postgres-call-history.js';
import { PostgresDecisions } from './decisions/postgres-decisions.js';
import { PostgresPolicies } from './policies/postgres-policies.js';
import type { GroupCommitQueue } from './group-commit.js';
import { type PostgresBatchWrite, postgresGroupCommit } from './postgres-group-commit.js';
import { type PostgresClient, type PostgresQuery, storeErrorOf } from './postgres-query.js';
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
import { type Row, num } from './row-mappers.js';
import { PostgresSigningKeys } from './signing-keys/postgres-signing-keys.js';
import { PreparingClient } from './postgres-prepared-client.js';
import { PostgresStatistics } from './postgres-statistics.js';
import type {
  AgentRegistration,
  AuditEntryBuilder,
  DecisionCommit,
  DecisionWrite,
  RegisterAgentResult,
  RelevantCallsQuery,
  Store,
} from './store.js';
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
  readonly #budget: PostgresBudget;
  readonly #calls: PostgresCallHistory;
  readonly #decisions: PostgresDecisions;
  readonly #signingKeys: PostgresSigningKeys;
  readonly #policies: PostgresPolicies;
  readonly #decisionBatches: GroupCommitQueue<PostgresBatchWrite>;
  readonly #statistics: PostgresStatistics;

  private constructor(pool: pg.Pool, schema: string | undefined) {
    this.#pool = pool;
    this.schema = schema;
    const query: PostgresQuery = (sql, params) => this.#query(sql, params);
    this.#audit = new PostgresAudit(query);
    this.#tenants = new PostgresTenants(query);
    this.#agents = new PostgresAgents(query, this.#audit);
    this.#budget = new PostgresBudget(query);
    this.#calls = new PostgresCallHistory(query);
    this.#decisions = new PostgresDecisions(query, {
      budget: this.#budget,
      audit: this.#audit,
      calls: this.#calls,
    });
    this.#signingKeys = new PostgresSigningKeys(query);
    this.#policies = new PostgresPolicies(query);
    this.#decisionBatches = postgresGroupCommit(pool, { audit: this.#audit, budget: this.#budget });
    this.#statistics = new PostgresStatistics(query, (operation) => this.#track(operation));
  }

  /** Connects, creates the schema if asked, and applies pending migrations under an advisory lock. */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) {
      throw new StoreError(
        `PostgreSQL schema: expected ${SCHEMA_NAME}, got ${JSON.stringify(options.schema)}`,
      );
    }
    const pool = new pg.Pool({
      Client: PreparingClient,
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
      throw storeErrorOf(err);
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
    return this.#budget.ledgerTotals(tenantId, agentId, windowMs, nowMs);
  }

  async settleReservation(
    tenantId: string,
    reservationId: string,
    state: Exclude<ReservationState, 'reserved'>,
  ): Promise<boolean> {
    return this.#budget.settleReservation(tenantId, reservationId, state);
  }

  async getReservation(tenantId: string, reservationId: string): Promise<ReservationRecord | undefined> {
    return this.#budget.getReservation(tenantId, reservationId);
  }

  async recentCalls(
    tenantId: string,
    agentId: string,
    sinceMs: number,
    limit: number,
  ): Promise<CallHistoryRecord[]> {
    return this.#calls.recentCalls(tenantId, agentId, sinceMs, limit);
  }

  async relevantCalls(
    tenantId: string,
    agentId: string,
    q: RelevantCallsQuery,
  ): Promise<CallHistoryRecord[]> {
    return this.#calls.relevantCalls(tenantId, agentId, q);
  }

  /** In the process's next decision batch (postgres-group-commit.ts); resolves once that batch committed. */
  async commitDecision<T>(write: DecisionWrite<T>): Promise<DecisionCommit<T>> {
    if (this.#closed) throw new StoreError('the store is closed');
    const r = write.reservation;
    const commit = await this.#track(
      this.#decisionBatches.enqueue<DecisionCommit<T>>({
        account: r && { tenantId: write.tenantId, agentId: write.agentId },
        run: (c, nextIndex) => this.#decisions.commitDecision(c, write, nextIndex),
      }),
    );
    this.#statistics.written(1);
    return commit;
  }

  async getDecision(tenantId: string, decisionId: string): Promise<DecisionRecord | undefined> {
    return this.#decisions.getDecision(tenantId, decisionId);
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

  async retireSigningKey(
    kid: string,
    notAfterMs: number,
    audit: AuditEntryBuilder,
  ): Promise<AuditRecord | undefined> {
    return this.#tx(async (c) =>
      (await this.#signingKeys.retireSigningKey(c, kid, notAfterMs))
        ? this.#audit.appendAudit(c, audit)
        : undefined,
    );
  }

  async putPolicy(p: PolicyRecord): Promise<boolean> {
    return this.#tx((c) => this.#policies.putPolicy(c, p));
  }

  async activePolicy(tenantId: string): Promise<PolicyRecord | undefined> {
    return this.#policies.activePolicy(tenantId);
  }

  /** Settles once the planner statistics the store refreshes are up to date (postgres-statistics.ts). */
  statisticsSettled(): Promise<void> {
    return this.#statistics.settled();
  }

  /**
   * Notifies the listeners of `channel` in this store's schema (every replica's `listen`); delivered when the
   * statement commits, to every session listening then (PostgreSQL NOTIFY: at most 8,000 bytes).
   */
  async notify(channel: string, payload: string): Promise<void> {
    await this.#query('SELECT pg_notify($1, $2)', [this.#channel(channel), payload]);
  }

  /**
   * Listens to `channel` in this store's schema on a connection of its own from the pool, given back when the
   * returned function is called (before close(), which waits for it). A dropped connection is replaced after
   * a second; what was notified meanwhile is not delivered again (listeners treat notifications as hints).
   */
  async listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    const name = this.#channel(channel);
    let stopped = false;
    let current: pg.PoolClient | undefined;
    const connect = async (): Promise<void> => {
      const client = await this.#pool.connect();
      client.on('notification', (n) => {
        if (n.channel === name && n.payload !== undefined) onPayload(n.payload);
      });
      client.on('error', () => {
        if (current === client) current = undefined;
        client.release(true);
        if (!stopped) setTimeout(() => void connect().catch(() => {}), 1000).unref();
      });
      await client.query(`LISTEN "${name}"`);
      if (stopped) return client.release();
      current = client;
    };
    await connect();
    return async () => {
      stopped = true;
      const client = current;
      current = undefined;
      if (!client) return;
      await client.query(`UNLISTEN "${name}"`).catch(() => {});
      client.release();
    };
  }

  /** A channel name of this schema: NOTIFY channels are database-wide, schemas are not. */
  #channel(channel: string): string {
    return `${this.schema ?? 'public'}.${channel}`.slice(0, 63);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.allSettled([...this.#inFlight]);
    await this.#pool.end();
  }
}

function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
