/**
 * The cursor of `GET /api/v1/approvals?cursor=`: where the next page starts, as `<lane>.<sort ms>.<id>` —
 * `h` for the held lane (HELD_FOR_VETO by hold end), `w` for the waiting lane (REQUIRE_HUMAN by creation).
 * It names a place in an index order (store/approvals-queue-query.ts), not an offset, so deciding items of an
 * earlier page moves nothing: every item still open is reached exactly once.
 */
import type { ProposalRecord, QueueLane, QueuePosition } from '../store/kernel-store.js';

export interface QueueCursor {
  lane: QueueLane;
  after: QueuePosition;
}

/** The route's query schema pattern: what `parseCursor` accepts (an id as IdentifierSchema allows). */
export const CURSOR_PATTERN = '^[hw]\\.(0|[1-9][0-9]{0,15})\\.[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$';

const LANE_OF_MARK: Record<string, QueueLane> = { h: 'held', w: 'waiting' };

export function laneOf(p: ProposalRecord): QueueLane {
  return p.status === 'HELD_FOR_VETO' ? 'held' : 'waiting';
}

/** The cursor just after `p`: a held proposal's place is its hold end, a waiting one's its creation. */
export function cursorAfter(p: ProposalRecord): string {
  const lane = laneOf(p);
  const sortMs = lane === 'held' ? p.holdUntilMs! : p.createdAtMs;
  return `${lane === 'held' ? 'h' : 'w'}.${sortMs}.${p.id}`;
}

/** A cursor the route's schema let through (CURSOR_PATTERN). */
export function parseCursor(cursor: string): QueueCursor {
  const first = cursor.indexOf('.');
  const second = cursor.indexOf('.', first + 1);
  return {
    lane: LANE_OF_MARK[cursor.slice(0, first)]!,
    after: { sortMs: Number(cursor.slice(first + 1, second)), id: cursor.slice(second + 1) },
  };
}
