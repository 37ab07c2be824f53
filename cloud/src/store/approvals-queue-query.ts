/**
 * The approvals queue's reads, one builder for both dialects (only the placeholders differ). The queue has two
 * lanes, each read in its own order through its own partial index (kernel-schema.ts, QUEUE_INDEXES):
 * HELD_FOR_VETO proposals by the end of their hold, soonest first — they run by themselves then unless
 * vetoed, so none may wait behind anything else — and REQUIRE_HUMAN proposals oldest first. A page resumes
 * after a position `(sort value, id)`: a row-value comparison on the index's own columns, so each page is a
 * range read of the index, never a scan of the tenant's proposals.
 */
import type { QueueLane, QueuePosition } from './kernel-store.js';

const LANES: Record<QueueLane, { status: string; column: string }> = {
  held: { status: 'HELD_FOR_VETO', column: 'hold_until_ms' },
  waiting: { status: 'REQUIRE_HUMAN', column: 'created_at_ms' },
};

/** The statuses that wait for a human; a key's open proposals of these are capped (kernel/open-proposals-cap.ts). */
const PENDING_HUMAN = "status IN ('REQUIRE_HUMAN', 'HELD_FOR_VETO')";

/** The lanes' indexes and the per-key count's, the same SQL in both dialects (kernel-schema.ts). */
export function queueIndexes(): string {
  return `
CREATE INDEX IF NOT EXISTS kernel_proposals_held ON kernel_proposals (tenant_id, hold_until_ms, id)
  WHERE state = 'open' AND status = 'HELD_FOR_VETO';
CREATE INDEX IF NOT EXISTS kernel_proposals_waiting ON kernel_proposals (tenant_id, created_at_ms, id)
  WHERE state = 'open' AND status = 'REQUIRE_HUMAN';
CREATE INDEX IF NOT EXISTS kernel_proposals_open_by_key ON kernel_proposals (tenant_id, proposed_by)
  WHERE state = 'open' AND ${PENDING_HUMAN};
`;
}

/** `mark(n)` is the n-th (1-based) placeholder of the dialect: `?` or `$n`. */
type Mark = (n: number) => string;

export function queueQuery(
  mark: Mark,
  tenantId: string,
  lane: QueueLane,
  after: QueuePosition | undefined,
  limit: number,
): { sql: string; params: unknown[] } {
  const { status, column } = LANES[lane];
  // the literals match the partial index's predicate, so both planners may use it
  const resume = after ? ` AND (${column}, id) > (${mark(2)}, ${mark(3)})` : '';
  const sql = `SELECT * FROM kernel_proposals WHERE tenant_id = ${mark(1)} AND state = 'open' AND status = '${status}'${resume}
  ORDER BY ${column}, id LIMIT ${mark(after ? 4 : 2)}`;
  return { sql, params: after ? [tenantId, after.sortMs, after.id, limit] : [tenantId, limit] };
}

/** Counts the key's open proposals waiting for a human, stopping at `atMost` (the cap needs no more). */
export function openByKeyQuery(
  mark: Mark,
  tenantId: string,
  keyId: string,
  atMost: number,
): { sql: string; params: unknown[] } {
  const sql = `SELECT COUNT(*) AS n FROM (SELECT 1 FROM kernel_proposals
  WHERE tenant_id = ${mark(1)} AND proposed_by = ${mark(2)} AND state = 'open' AND ${PENDING_HUMAN} LIMIT ${mark(3)}) AS open_by_key`;
  return { sql, params: [tenantId, keyId, atMost] };
}
