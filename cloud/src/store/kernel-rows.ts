/** Row ↔ record mapping for kernel proposals, shared by both kernel stores and the decision that writes the row. */
import type { AuthorizationStatus } from '@pentagate/protocol';
import type { ComposedRow } from './composed-row.js';
import type { ProposalRecord, ProposalState } from './kernel-store.js';
import { num, type Row } from './row-mappers.js';

export const toProposal = (r: Row): ProposalRecord => ({
  tenantId: String(r.tenant_id),
  id: String(r.id),
  agentId: String(r.agent_id),
  status: String(r.status) as AuthorizationStatus,
  state: String(r.state) as ProposalState,
  actionType: String(r.action_type),
  actionDigest: String(r.action_digest),
  idempotencyKey: r.idempotency_key === null ? null : String(r.idempotency_key),
  reservationId: r.reservation_id === null ? null : String(r.reservation_id),
  createdAtMs: num(r.created_at_ms),
  expiresAtMs: num(r.expires_at_ms),
  holdUntilMs: r.hold_until_ms === null ? null : num(r.hold_until_ms),
  updatedAtMs: num(r.updated_at_ms),
  settledBy: r.settled_by === null ? null : String(r.settled_by),
  proposedBy: r.proposed_by === null || r.proposed_by === undefined ? null : String(r.proposed_by),
});

/** Column order of the INSERT in both dialects. */
function proposalValues(p: ProposalRecord): unknown[] {
  return [
    p.tenantId,
    p.id,
    p.agentId,
    p.status,
    p.state,
    p.actionType,
    p.actionDigest,
    p.idempotencyKey,
    p.reservationId,
    p.createdAtMs,
    p.expiresAtMs,
    p.holdUntilMs,
    p.updatedAtMs,
    p.settledBy,
    p.proposedBy,
  ];
}

const PROPOSAL_COLUMNS = [
  'tenant_id',
  'id',
  'agent_id',
  'status',
  'state',
  'action_type',
  'action_digest',
  'idempotency_key',
  'reservation_id',
  'created_at_ms',
  'expires_at_ms',
  'hold_until_ms',
  'updated_at_ms',
  'settled_by',
  'proposed_by',
] as const;

/**
 * The proposal's row as its decision writes it (DecisionParts.rows): in the decision's transaction, so a
 * proposal never exists without its decision, and a taken (tenant, idempotency key) fails that decision
 * with RowConflict instead of writing anything.
 */
export function proposalRow(p: ProposalRecord): ComposedRow {
  return { table: 'kernel_proposals', columns: PROPOSAL_COLUMNS, values: proposalValues(p) };
}
