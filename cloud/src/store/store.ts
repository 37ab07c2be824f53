/**
 * The storage interface of the control plane. Two implementations (SQLite for one machine, PostgreSQL for
 * many) pass one conformance suite (cloud/test/store/conformance.ts).
 *
 * Every method that changes state is atomic on its own, and every race that matters — budget reservations,
 * audit log positions, idempotent registration — is settled inside the database, never in process memory,
 * so several cloud replicas may share one PostgreSQL (ARCHITECTURE.md §7).
 *
 * The audit log is append-only: the only writes are `appendAudit`, `registerAgent`, `retireSigningKey` and
 * `commitDecision`, each of which takes the next log index inside its own transaction and lets the caller
 * build (and sign) the entry for that index, so the entry, the index and the state change become durable
 * together or not at all.
 */
import type { AuditEntry } from '@pentagate/protocol';
import type { ComposedCount, ComposedRow } from './composed-row.js';
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

/** Builds the audit entry once the store knows the index it will hold. Must be synchronous and pure. */
export type AuditEntryBuilder = (index: number) => AuditEntry;

export interface AgentRegistration {
  id: string;
  tenantId: string;
  name: string;
  version: string;
  domain: string;
  lobeName: string;
  createdAtMs: number;
  metadata: Record<string, unknown>;
}

/**
 * `created`: a new agent and its audit entry. `existing`: the same tenant + name + version was registered
 * before (idempotent; nothing written). `conflict`: the id or lobe name is taken by another agent of the
 * tenant (nothing written).
 */
export type RegisterAgentResult =
  | { status: 'created'; agent: AgentRecord; audit: AuditRecord }
  | { status: 'existing'; agent: AgentRecord }
  | { status: 'conflict'; field: 'id' | 'lobeName' };

/** A budget reservation to take atomically with a decision. */
export interface ReservationRequest {
  id: string;
  amount: number;
  /** The budget for the window: the reservation succeeds only if spent + reserved + amount ≤ limit. */
  limit: number;
  windowMs: number;
}

/** What the store learnt inside the transaction, handed to the decision builder. */
export interface DecisionContext {
  index: number;
  /** True when the reservation was taken (or none was asked for). */
  reserved: boolean;
  /** Ledger totals inside the window, read under the lock, before this reservation. */
  ledger: LedgerTotals;
  /**
   * The calls `DecisionWrite.history` selects, read inside the transaction after the locks, so they include
   * every decision committed before this one — also those decided concurrently with it (absent when not asked).
   */
  history?: CallHistoryRecord[];
  /** What `DecisionWrite.count` counted, read inside the transaction after the locks (absent when not asked). */
  count?: number;
}

export interface DecisionParts {
  /** The `decision` audit entry; it carries the signed envelope in `data.envelope`, its only stored copy. */
  entry: AuditEntry;
  decision: Omit<DecisionRecord, 'auditIndex' | 'envelope'>;
  call?: Omit<CallHistoryRecord, 'decisionId' | 'tenantId' | 'agentId'>;
  /**
   * Rows of stores composed on this one (the kernel's proposal row), written in the decision's
   * transaction so they cost no write of their own; one that collides with a unique key rolls the whole
   * decision back and rejects it with RowConflict (composed-row.ts).
   */
  rows?: readonly ComposedRow[];
}

export interface DecisionWrite<T> {
  tenantId: string;
  /** The agent account (AgentRecord.accountId) the reservation and the call record are kept under. */
  agentId: string;
  nowMs: number;
  reservation?: ReservationRequest;
  /**
   * The metabolic ledger's calls to read again inside the transaction (DecisionContext.history): calls decided
   * concurrently were not in the history read before it, and a loop limit must hold for them too.
   */
  history?: RelevantCallsQuery;
  /**
   * A composed store's count to read inside the transaction (DecisionContext.count), for a limit that must
   * hold across concurrent decisions: `build` may throw to refuse the decision, and nothing of it is written.
   */
  count?: ComposedCount;
  /** Called once inside the transaction; returns the rows to write and a value for the caller. */
  build(context: DecisionContext): { parts: DecisionParts; result: T };
}

export interface DecisionCommit<T> {
  audit: AuditRecord;
  decision: DecisionRecord;
  /** True when the reservation was taken: asked for, within the budget, and kept by the built decision. */
  reserved: boolean;
  result: T;
}

/**
 * The calls of one agent that the metabolic ledger needs for one new call (pentagon tier3 economic):
 * identical or near-identical calls in the repeat window, and denied calls of the same tool in the
 * probing window. Each part is an indexed lookup, so the cost does not grow with the agent's traffic.
 */
export interface RelevantCallsQuery {
  fingerprint: string;
  nearFingerprint: string;
  /** Compared case-insensitively, as the pentagon does. */
  toolName: string;
  repeatSinceMs: number;
  deniedSinceMs: number;
  /** Most rows returned (the newest ones). */
  limit: number;
}

export interface Store {
  readonly kind: 'sqlite' | 'postgres';

  // Tenants and API keys ------------------------------------------------------------------------------
  createTenant(tenant: TenantRecord): Promise<void>;
  getTenant(id: string): Promise<TenantRecord | undefined>;
  listTenants(): Promise<TenantRecord[]>;
  insertApiKey(key: ApiKeyRecord): Promise<void>;
  /** The key whose SHA-256 is `keyHashHex`, revoked or not. */
  findApiKeyByHash(keyHashHex: string): Promise<ApiKeyRecord | undefined>;
  listApiKeys(tenantId: string): Promise<ApiKeyRecord[]>;
  /** Revokes a key of that tenant; false when no such unrevoked key exists. */
  revokeApiKey(tenantId: string, keyId: string, nowMs: number): Promise<boolean>;

  // Agents (lobes) ------------------------------------------------------------------------------------
  /** Registers tenant + name + version once; a repeat returns the first record and writes nothing. */
  registerAgent(registration: AgentRegistration, audit: AuditEntryBuilder): Promise<RegisterAgentResult>;
  findAgentByLobe(tenantId: string, lobeName: string): Promise<AgentRecord | undefined>;
  findAgentById(tenantId: string, agentId: string): Promise<AgentRecord | undefined>;

  // Budget ledger and metabolic history -----------------------------------------------------------------
  ledgerTotals(tenantId: string, agentId: string, windowMs: number, nowMs: number): Promise<LedgerTotals>;
  /** Moves a reservation from 'reserved' to 'committed' or 'released'; false if it was not 'reserved'. */
  settleReservation(
    tenantId: string,
    reservationId: string,
    state: Exclude<ReservationState, 'reserved'>,
  ): Promise<boolean>;
  getReservation(tenantId: string, reservationId: string): Promise<ReservationRecord | undefined>;
  /** This agent's calls since `sinceMs`, oldest first, at most `limit`. */
  recentCalls(
    tenantId: string,
    agentId: string,
    sinceMs: number,
    limit: number,
  ): Promise<CallHistoryRecord[]>;
  /** The calls `query` selects, oldest first (see RelevantCallsQuery). */
  relevantCalls(tenantId: string, agentId: string, query: RelevantCallsQuery): Promise<CallHistoryRecord[]>;

  // Decisions -------------------------------------------------------------------------------------------
  /**
   * In one transaction: takes the reservation (if any) under a per-agent lock, takes the next audit index,
   * calls `build`, and writes the audit entry, the decision, the call record and the composed rows.
   */
  commitDecision<T>(write: DecisionWrite<T>): Promise<DecisionCommit<T>>;
  getDecision(tenantId: string, decisionId: string): Promise<DecisionRecord | undefined>;

  // Audit log ---------------------------------------------------------------------------------------------
  appendAudit(build: AuditEntryBuilder): Promise<AuditRecord>;
  auditSize(): Promise<number>;
  /** Entries with fromIndex ≤ index < toIndex, in index order. */
  auditEntries(fromIndex: number, toIndex: number): Promise<AuditRecord[]>;
  /** Leaf hashes with fromIndex ≤ index < toIndex, in index order (cheaper than the entries). */
  auditLeafHashes(fromIndex: number, toIndex: number): Promise<Uint8Array[]>;

  // Signing keys and policies ------------------------------------------------------------------------------
  /** Records a public key's metadata; a repeat of the same kid and role is a no-op. */
  putSigningKey(key: SigningKeyRecord): Promise<boolean>;
  listSigningKeys(): Promise<SigningKeyRecord[]>;
  /**
   * Ends the validity of the key `kid` at `notAfterMs` (its `notAfter` in the trust document: a signature it
   * makes later is refused by every verifier) and appends `audit` in the same write. Undefined, and nothing
   * written, when no key of that kid is valid without an end, or `notAfterMs` is before its start.
   */
  retireSigningKey(
    kid: string,
    notAfterMs: number,
    audit: AuditEntryBuilder,
  ): Promise<AuditRecord | undefined>;
  /** Records a policy version; returns false when this tenant's active policy already has that digest. */
  putPolicy(policy: PolicyRecord): Promise<boolean>;
  activePolicy(tenantId: string): Promise<PolicyRecord | undefined>;

  /** Waits for pending writes to become durable, then closes. Idempotent. */
  close(): Promise<void>;
}
