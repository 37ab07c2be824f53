/**
 * Maps database rows (SQLite or PostgreSQL) to records. PostgreSQL returns BIGINT as a string and
 * booleans as booleans, SQLite returns integers for both, so every reader goes through these helpers.
 * The other way, the values of the rows both dialects insert come from here too, in column order, with
 * the boolean in the caller's encoding (SQLite binds 1/0, PostgreSQL a boolean).
 */
import type { AuditEntry } from '@pentagate/protocol';
import type {
  AgentRecord,
  ApiKeyRecord,
  AuditRecord,
  CallHistoryRecord,
  DecisionRecord,
  PolicyRecord,
  ReservationRecord,
  ReservationState,
  SigningKeyRecord,
  TenantRecord,
  ApiKeyScope,
} from './records.js';
import type { DecisionParts } from './store.js';
import { StoreError } from './store-error.js';

export type Row = Record<string, unknown>;

export function num(v: unknown): number {
  return typeof v === 'number' ? v : Number(v);
}

function numOrNull(v: unknown): number | null {
  return v === null || v === undefined ? null : num(v);
}

function bool(v: unknown): boolean {
  return v === true || v === 1 || v === '1';
}

function str(v: unknown): string {
  return String(v);
}

function json<T>(v: unknown): T {
  return JSON.parse(String(v)) as T;
}

export function bytes(v: unknown): Uint8Array {
  const b = v as Uint8Array;
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

export const toTenant = (r: Row): TenantRecord => ({
  id: str(r.id),
  name: str(r.name),
  createdAtMs: num(r.created_at_ms),
});

export const toApiKey = (r: Row): ApiKeyRecord => ({
  id: str(r.id),
  tenantId: str(r.tenant_id),
  scope: str(r.scope) as ApiKeyScope,
  keyHashHex: str(r.key_hash),
  createdAtMs: num(r.created_at_ms),
  revokedAtMs: numOrNull(r.revoked_at_ms),
  region: r.region === null || r.region === undefined ? null : str(r.region),
  department: r.department === null || r.department === undefined ? null : str(r.department),
  agentName: r.agent_name === null || r.agent_name === undefined ? null : str(r.agent_name),
});

export const toAgent = (r: Row): AgentRecord => ({
  id: str(r.id),
  tenantId: str(r.tenant_id),
  name: str(r.name),
  version: str(r.version),
  domain: str(r.domain),
  lobeName: str(r.lobe_name),
  accountId: str(r.account_id),
  createdAtMs: num(r.created_at_ms),
  metadata: json(r.metadata),
});

export const toReservation = (r: Row): ReservationRecord => ({
  id: str(r.id),
  tenantId: str(r.tenant_id),
  agentId: str(r.agent_id),
  amount: num(r.amount),
  state: str(r.state) as ReservationState,
  createdAtMs: num(r.created_at_ms),
  decisionId: str(r.decision_id),
});

export const toCall = (r: Row): CallHistoryRecord => ({
  tenantId: str(r.tenant_id),
  agentId: str(r.agent_id),
  decisionId: str(r.decision_id),
  toolName: str(r.tool_name),
  fingerprint: str(r.fingerprint),
  nearFingerprint: str(r.near_fingerprint),
  atMs: num(r.at_ms),
  approved: bool(r.approved),
  violations: json(r.violations),
});

/** The call_history INSERT's values, in its column order. */
export function callValues(
  decisionId: string,
  tenantId: string,
  agentId: string,
  c: NonNullable<DecisionParts['call']>,
  approved: number | boolean,
): unknown[] {
  return [
    decisionId,
    tenantId,
    agentId,
    c.toolName,
    c.toolName.toLowerCase(),
    c.fingerprint,
    c.nearFingerprint,
    c.atMs,
    approved,
    JSON.stringify(c.violations),
  ];
}

export const toDecision = (r: Row): DecisionRecord => ({
  id: str(r.id),
  tenantId: str(r.tenant_id),
  agentId: str(r.agent_id),
  outcome: str(r.outcome),
  approved: bool(r.approved),
  createdAtMs: num(r.created_at_ms),
  subjectDigest: str(r.subject_digest),
  policyDigest: r.policy_digest === null ? null : str(r.policy_digest),
  reservedAmount: num(r.reserved_amount),
  auditIndex: num(r.audit_index),
  envelope: envelopeOfEntry(r.audit_entry),
  verdict: json(r.verdict),
});

/**
 * The decisions INSERT's values, in its column order. The verdict is stored as JSON.stringify writes it:
 * the column is only ever parsed (toDecision), never hashed or signed, so RFC 8785's member order bought
 * nothing, and canonicalising the ~1.6 KB verdict was ~2.7 % of a propose's CPU inside the write batch.
 */
export function decisionValues(
  d: DecisionParts['decision'],
  auditIndex: number,
  approved: number | boolean,
): unknown[] {
  return [
    d.id,
    d.tenantId,
    d.agentId,
    d.outcome,
    approved,
    d.createdAtMs,
    d.subjectDigest,
    d.policyDigest,
    d.reservedAmount,
    auditIndex,
    JSON.stringify(d.verdict),
  ];
}

export const toAudit = (r: Row): AuditRecord => ({
  index: num(r.idx),
  entry: json<AuditEntry>(r.entry),
  leafHash: bytes(r.leaf_hash),
});

export const toSigningKey = (r: Row): SigningKeyRecord => ({
  kid: str(r.kid),
  role: str(r.role),
  publicKey: str(r.public_key),
  name: r.name === null ? null : str(r.name),
  notBeforeMs: num(r.not_before_ms),
  notAfterMs: numOrNull(r.not_after_ms),
  createdAtMs: num(r.created_at_ms),
});

export const toPolicy = (r: Row): PolicyRecord => ({
  tenantId: str(r.tenant_id),
  digest: str(r.digest),
  policyId: str(r.policy_id),
  source: str(r.source),
  yamlText: str(r.yaml_text),
  activatedAtMs: num(r.activated_at_ms),
});

/** The signed envelope a decision's audit entry carries (`data.envelope`, written by commitDecision). */
function envelopeOfEntry(entryText: unknown): Record<string, unknown> {
  const entry = json(entryText) as { data?: { envelope?: unknown } };
  const envelope = entry.data?.envelope;
  if (typeof envelope !== 'object' || envelope === null) {
    throw new StoreError('decision: expected its audit entry to carry data.envelope, found none');
  }
  return envelope as Record<string, unknown>;
}
