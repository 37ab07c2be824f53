/**
 * The embedded store: one SQLite file (better-sqlite3) in WAL mode with synchronous=FULL, so a committed
 * audit entry survives a power cut. One process owns the file; writes go through a group-commit queue
 * (sqlite-write-queue.ts), and the single writer settles races by running each write to completion.
 *
 * This class owns the connection, the migrations, the write queue and the durable audit size. The statements
 * live with their record family (tenants/, agents/, budget/, call-history/, decisions/, audit/,
 * signing-keys/, policies/), beside its PostgreSQL twin; each write method runs its family's work as one
 * write of the queue.
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteAgents } from './agents/sqlite-agents.js';
import { SqliteAudit } from './audit/sqlite-audit.js';
import { SqliteBudget } from './budget/sqlite-budget.js';
import { SqliteCallHistory } from './call-history/sqlite-call-history.js';
import { SqliteDecisions } from './decisions/sqlite-decisions.js';
import { SqlitePolicies } from './policies/sqlite-policies.js';
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
import { SqliteSigningKeys } from './signing-keys/sqlite-signing-keys.js';
import { SqliteReadSnapshot } from './sqlite-read-snapshot.js';
import { SQLITE_MIGRATIONS } from './sqlite-schema.js';
import { type SyncFile, SqliteWriteQueue } from './sqlite-write-queue.js';
import type {
  AgentRegistration,
  AuditEntryBuilder,
  DecisionCommit,
  DecisionWrite,
  RegisterAgentResult,
  RelevantCallsQuery,
  Store,
} from './store.js';
import { SqliteCheckpointer } from './sqlite-checkpointer.js';
import { StoreError } from './store-error.js';
import { SqliteTenants } from './tenants/sqlite-tenants.js';

export interface SqliteStoreOptions {
  /** File path, or ':memory:' for tests that need no durability. */
  path: string;
  /**
   * How commits become durable before a write resolves: `group-fdatasync` (default) — WAL synchronous=NORMAL
   * plus one fdatasync of the WAL per batch on the thread pool; `full` — synchronous=FULL, SQLite fsyncs
   * every commit on the event loop (simpler, much slower under load).
   */
  sync?: 'group-fdatasync' | 'full';
  /** What makes the WAL durable under `group-fdatasync` (default fs.fdatasync); tests hold it to watch writes wait. */
  syncFile?: SyncFile;
}

/**
 * WAL pages after which a COMMIT checkpoints them into the database file (SQLite's default is 1,000). That
 * checkpoint runs inside the COMMIT, on the event loop, and fsyncs the WAL and the database file; measured
 * with the propose load (~10 WAL pages per decision) alone it cost ~10 ms every ~4,000 pages. Most pages are
 * now copied before it by the checkpointer's worker thread (sqlite-checkpointer.ts), so this one copies
 * only the rest and is what bounds the WAL: SQLite starts the WAL over only once a checkpoint has copied
 * every frame, which the worker, running beside the commits, rarely sees. Durability does not depend on
 * it: each answer waits for its batch's WAL fdatasync (sqlite-write-queue.ts).
 */
export const WAL_AUTOCHECKPOINT_PAGES = 4000;

/** What `runWrite` hands a composed store inside its write. */
export interface SqliteWriteContext {
  db: Database.Database;
  appendAudit(build: AuditEntryBuilder): AuditRecord;
}

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  readonly #db: Database.Database;
  readonly #queue: SqliteWriteQueue;
  readonly #walFd: number | undefined;
  readonly #checkpointer: SqliteCheckpointer | undefined;
  readonly #reads: SqliteReadSnapshot;
  #durableAuditSize = 0;
  readonly #audit: SqliteAudit;
  readonly #tenants: SqliteTenants;
  readonly #agents: SqliteAgents;
  readonly #budget: SqliteBudget;
  readonly #calls: SqliteCallHistory;
  readonly #decisions: SqliteDecisions;
  readonly #signingKeys: SqliteSigningKeys;
  readonly #policies: SqlitePolicies;
  #closed = false;

  constructor(options: SqliteStoreOptions) {
    try {
      if (options.path !== ':memory:') {
        // The store holds key hashes and the audit log: owner-only from the first command that opens it
        // (0700 folder, 0600 file; SQLite gives its -wal/-shm files the database file's mode).
        mkdirSync(dirname(options.path), { recursive: true, mode: 0o700 });
        closeSync(openSync(options.path, 'a', 0o600));
      }
      this.#db = new Database(options.path);
    } catch (err) {
      throw new StoreError(`cannot open SQLite database ${options.path}: ${(err as Error).message}`);
    }
    const memory = options.path === ':memory:';
    const sync = options.sync ?? 'group-fdatasync';
    this.#db.pragma('journal_mode = WAL');
    // Durable before any answer (ARCHITECTURE.md §5): either SQLite fsyncs each commit (FULL), or the write queue
    // fdatasyncs the WAL after each batch off the event loop (NORMAL + group fdatasync; see the queue).
    this.#db.pragma('synchronous = FULL');
    this.#db.pragma('foreign_keys = ON');
    this.#db.pragma('busy_timeout = 5000');
    // The default 2 MB page cache is far smaller than the indexes a busy log touches (fingerprints are
    // random hex, so each lookup and insert lands on a random leaf page): every miss was a pread on the
    // event loop. A 64 MB cache and memory-mapped reads of the main file keep the hot pages in memory.
    this.#db.pragma('cache_size = -65536');
    if (!(options.path === ':memory:')) this.#db.pragma('mmap_size = 268435456');
    this.#db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    migrate(this.#db);
    // Each family prepares its statements once, here (better-sqlite3 re-uses the compiled plan).
    this.#audit = new SqliteAudit(this.#db);
    this.#tenants = new SqliteTenants(this.#db);
    this.#agents = new SqliteAgents(this.#db, this.#audit);
    this.#budget = new SqliteBudget(this.#db);
    this.#calls = new SqliteCallHistory(this.#db);
    this.#decisions = new SqliteDecisions(this.#db, {
      budget: this.#budget,
      audit: this.#audit,
      calls: this.#calls,
    });
    this.#signingKeys = new SqliteSigningKeys(this.#db);
    this.#policies = new SqlitePolicies(this.#db);
    let walFd: number | undefined;
    if (!memory && sync === 'group-fdatasync') {
      this.#db.pragma('synchronous = NORMAL');
      walFd = openSync(`${options.path}-wal`, 'r');
    }
    this.#walFd = walFd;
    this.#durableAuditSize = this.#audit.nextAuditIndex();
    const checkpointer = memory ? undefined : new SqliteCheckpointer(options.path);
    this.#checkpointer = checkpointer;
    const reads = new SqliteReadSnapshot(this.#db);
    this.#reads = reads;
    this.#queue = new SqliteWriteQueue(this.#db, {
      walFd,
      syncFile: options.syncFile,
      beforeBatch: () => reads.end(),
      afterCommit: () => checkpointer?.afterCommit(),
    });
  }

  /**
   * Runs `run` in the next group commit; resolves once it is durable. Also advances the durable audit
   * size: everything committed up to this write's batch is on disk when its promise resolves.
   */
  #write<T>(run: () => T): Promise<T> {
    if (this.#closed) return Promise.reject(new StoreError('the store is closed'));
    let auditSizeAtCommit = 0;
    return this.#queue
      .enqueue(() => {
        const value = run();
        auditSizeAtCommit = this.#audit.nextAuditIndex();
        return value;
      })
      .then((value) => {
        if (auditSizeAtCommit > this.#durableAuditSize) this.#durableAuditSize = auditSizeAtCommit;
        return value;
      });
  }

  /**
   * For stores composed on this one (the kernel's, cloud/src/kernel/store/): runs `run` as one write of
   * the group-commit queue — failing alone, durable before the promise resolves — with the connection
   * and an audit appender that takes the next index inside the same write. `run` may run twice (see
   * SqliteWriteQueue.enqueue), so it acts on nothing but the database.
   */
  runWrite<T>(run: (tx: SqliteWriteContext) => T): Promise<T> {
    return this.#write(() => run({ db: this.#db, appendAudit: (build) => this.#audit.appendAudit(build) }));
  }

  /** The connection, for reads by composed stores; they write only through `runWrite`. */
  get database(): Database.Database {
    return this.#db;
  }

  /** The connection for a read: the read joins this turn's read transaction (sqlite-read-snapshot.ts). */
  get reader(): Database.Database {
    this.#reads.join();
    return this.#db;
  }

  async createTenant(tenant: TenantRecord): Promise<void> {
    await this.#write(() => this.#tenants.createTenant(tenant));
  }

  async getTenant(id: string): Promise<TenantRecord | undefined> {
    this.#reads.join();
    return this.#tenants.getTenant(id);
  }

  async listTenants(): Promise<TenantRecord[]> {
    this.#reads.join();
    return this.#tenants.listTenants();
  }

  async insertApiKey(key: ApiKeyRecord): Promise<void> {
    await this.#write(() => this.#tenants.insertApiKey(key));
  }

  async findApiKeyByHash(keyHashHex: string): Promise<ApiKeyRecord | undefined> {
    this.#reads.join();
    return this.#tenants.findApiKeyByHash(keyHashHex);
  }

  async listApiKeys(tenantId: string): Promise<ApiKeyRecord[]> {
    this.#reads.join();
    return this.#tenants.listApiKeys(tenantId);
  }

  async revokeApiKey(tenantId: string, keyId: string, nowMs: number): Promise<boolean> {
    return this.#write(() => this.#tenants.revokeApiKey(tenantId, keyId, nowMs));
  }

  async registerAgent(
    registration: AgentRegistration,
    audit: AuditEntryBuilder,
  ): Promise<RegisterAgentResult> {
    return this.#write(() => this.#agents.registerAgent(registration, audit));
  }

  async findAgentByLobe(tenantId: string, lobeName: string): Promise<AgentRecord | undefined> {
    this.#reads.join();
    return this.#agents.findAgentByLobe(tenantId, lobeName);
  }

  async findAgentById(tenantId: string, agentId: string): Promise<AgentRecord | undefined> {
    this.#reads.join();
    return this.#agents.findAgentById(tenantId, agentId);
  }

  async ledgerTotals(
    tenantId: string,
    agentId: string,
    windowMs: number,
    nowMs: number,
  ): Promise<LedgerTotals> {
    this.#reads.join();
    return this.#budget.ledgerTotals(tenantId, agentId, windowMs, nowMs);
  }

  async settleReservation(
    tenantId: string,
    reservationId: string,
    state: Exclude<ReservationState, 'reserved'>,
  ): Promise<boolean> {
    return this.#write(() => this.#budget.settleReservation(tenantId, reservationId, state));
  }

  async getReservation(tenantId: string, reservationId: string): Promise<ReservationRecord | undefined> {
    this.#reads.join();
    return this.#budget.getReservation(tenantId, reservationId);
  }

  async recentCalls(
    tenantId: string,
    agentId: string,
    sinceMs: number,
    limit: number,
  ): Promise<CallHistoryRecord[]> {
    this.#reads.join();
    return this.#calls.recentCalls(tenantId, agentId, sinceMs, limit);
  }

  async relevantCalls(
    tenantId: string,
    agentId: string,
    q: RelevantCallsQuery,
  ): Promise<CallHistoryRecord[]> {
    this.#reads.join();
    return this.#calls.relevantCalls(tenantId, agentId, q);
  }

  async commitDecision<T>(write: DecisionWrite<T>): Promise<DecisionCommit<T>> {
    return this.#write(() => this.#decisions.commitDecision(write));
  }

  async getDecision(tenantId: string, decisionId: string): Promise<DecisionRecord | undefined> {
    this.#reads.join();
    return this.#decisions.getDecision(tenantId, decisionId);
  }

  async appendAudit(build: AuditEntryBuilder): Promise<AuditRecord> {
    return this.#write(() => this.#audit.appendAudit(build));
  }

  /**
   * The durable size: entries committed but still waiting for their fdatasync are not counted, so a
   * checkpoint is never signed over an entry a crash could still take back.
   */
  async auditSize(): Promise<number> {
    return this.#durableAuditSize;
  }

  async auditEntries(fromIndex: number, toIndex: number): Promise<AuditRecord[]> {
    this.#reads.join();
    return this.#audit.auditEntries(fromIndex, toIndex);
  }

  async auditLeafHashes(fromIndex: number, toIndex: number): Promise<Uint8Array[]> {
    this.#reads.join();
    return this.#audit.auditLeafHashes(fromIndex, toIndex);
  }

  async putSigningKey(key: SigningKeyRecord): Promise<boolean> {
    return this.#write(() => this.#signingKeys.putSigningKey(key));
  }

  async listSigningKeys(): Promise<SigningKeyRecord[]> {
    this.#reads.join();
    return this.#signingKeys.listSigningKeys();
  }

  async retireSigningKey(
    kid: string,
    notAfterMs: number,
    audit: AuditEntryBuilder,
  ): Promise<AuditRecord | undefined> {
    return this.#write(() =>
      this.#signingKeys.retireSigningKey(kid, notAfterMs) ? this.#audit.appendAudit(audit) : undefined,
    );
  }

  async putPolicy(policy: PolicyRecord): Promise<boolean> {
    return this.#write(() => this.#policies.putPolicy(policy));
  }

  async activePolicy(tenantId: string): Promise<PolicyRecord | undefined> {
    this.#reads.join();
    return this.#policies.activePolicy(tenantId);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue.drained();
    await this.#checkpointer?.close();
    this.#reads.end(); // the last connection to close copies the WAL into the file and removes it
    this.#db.close();
    if (this.#walFd !== undefined) closeSync(this.#walFd);
  }
}

function migrate(db: Database.Database): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at_ms INTEGER NOT NULL)',
  );
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as Row[]).map((r) => num(r.version)),
  );
  for (const m of SQLITE_MIGRATIONS) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, applied_at_ms) VALUES (?, ?)').run(
        m.version,
        Date.now(),
      );
    }).immediate();
  }
}
