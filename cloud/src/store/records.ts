/**
 * The rows the control plane keeps, as plain records. Times are integer Unix milliseconds (`…Ms`), JSON
 * values are held as parsed objects; both stores map them to and from their own column types.
 */
import type { AuditEntry } from '@pentagate/protocol';

/**
 * What an API key may do; see cloud/src/app/scopes.ts for the routes each scope opens. An `edge` key is
 * bound to one robot of the registry (cloud/src/fleet) and opens only that robot's fleet routes.
 */
export type ApiKeyScope = 'agent' | 'operator' | 'auditor' | 'admin' | 'edge';
/** Scopes `apikey issue` hands out; an `edge` key is issued only with its robot (`cloud robot add`). */
export const API_KEY_SCOPES: readonly ApiKeyScope[] = ['agent', 'operator', 'auditor', 'admin'];

export interface TenantRecord {
  id: string;
  name: string;
  createdAtMs: number;
}

export interface ApiKeyRecord {
  id: string;
  tenantId: string;
  scope: ApiKeyScope;
  /** SHA-256 of the key text as 64 hex chars; the key itself is never stored. */
  keyHashHex: string;
  createdAtMs: number;
  revokedAtMs: number | null;
  /** Jurisdiction bound by the tenant's administrator; requests cannot change it (null: none bound). */
  region: string | null;
  department: string | null;
  /**
   * The agent_name the key may act for, bound by the tenant's administrator (null: any agent of the
   * tenant). A bound key registers, proposes and decides only as that agent (cloud/src/app/agent-binding.ts).
   */
  agentName: string | null;
}

/** A registered agent (a "lobe"): one per tenant + name + version. */
export interface AgentRecord {
  id: string;
  tenantId: string;
  name: string;
  version: string;
  domain: string;
  lobeName: string;
  /**
   * The agent's account: the id its budget reservations and call history are kept under. It is the id of
   * the first registration of this agent_name in the tenant, shared by every later version and by the
   * first-contact registrations of the same name, so registering again never opens a fresh budget window.
   */
  accountId: string;
  createdAtMs: number;
  /** Registration fields the store does not interpret (capabilities, description, …). */
  metadata: Record<string, unknown>;
}

export type ReservationState = 'reserved' | 'committed' | 'released';

export interface ReservationRecord {
  id: string;
  tenantId: string;
  agentId: string;
  amount: number;
  state: ReservationState;
  createdAtMs: number;
  /** The decision that made it, so the kernel can commit or release it. */
  decisionId: string;
}

/** What the budget ledger holds for one agent inside a window ending now. */
export interface LedgerTotals {
  /** Committed spend. */
  spent: number;
  /** Reserved but not yet committed or released. */
  reserved: number;
}

/** One call in the metabolic ledger (loop, waste and probing detection read these). */
export interface CallHistoryRecord {
  tenantId: string;
  agentId: string;
  decisionId: string;
  toolName: string;
  fingerprint: string;
  nearFingerprint: string;
  atMs: number;
  approved: boolean;
  violations: string[];
}

export interface DecisionRecord {
  id: string;
  tenantId: string;
  agentId: string;
  /** AuthorizationStatus or APPROVED / VETOED, as in the signed predicate. */
  outcome: string;
  approved: boolean;
  createdAtMs: number;
  /** SHA-256(JCS(action request)), the in-toto subject. */
  subjectDigest: string;
  policyDigest: string | null;
  reservedAmount: number;
  auditIndex: number;
  /**
   * The DSSE envelope (JSON) signed over the decision statement. Stored once, in the decision's audit
   * entry (`data.envelope`); the decision row points at that entry by `auditIndex`.
   */
  envelope: Record<string, unknown>;
  /**
   * What the answer carried beyond the signed statement (reason, violations, remediation, reservation;
   * the kernel's replay input). The tier results are not repeated here: they are in the envelope.
   */
  verdict: Record<string, unknown>;
}

export interface AuditRecord {
  index: number;
  entry: AuditEntry;
  /** RFC 6962 leaf hash of canonicalBytes(entry), kept so the Merkle tree can be rebuilt without re-hashing. */
  leafHash: Uint8Array;
}

export interface SigningKeyRecord {
  kid: string;
  role: string;
  /** Raw public key, base64url. */
  publicKey: string;
  name: string | null;
  notBeforeMs: number;
  notAfterMs: number | null;
  createdAtMs: number;
}

export interface PolicyRecord {
  tenantId: string;
  digest: string;
  policyId: string;
  source: string;
  yamlText: string;
  activatedAtMs: number;
}
