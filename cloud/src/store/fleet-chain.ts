/**
 * The chain rule for shipped edge records, one pure function both stores run inside their transaction:
 * a record below the stored head must be the one stored (same digest: a duplicate, kept once); the record
 * at the head must name the head's digest as its previous digest; a record beyond the head is a gap.
 * Anything else is a fork or a rewritten record, and the batch is refused whole.
 */
import type { EdgeAppendResult, EdgeChainState, EdgeRecordWrite } from './fleet-store.js';

export interface EdgeAppendPlan {
  refused?: Extract<EdgeAppendResult, { status: 'refused' }>['refusal'];
  /** Records to store, in order. */
  fresh: EdgeRecordWrite[];
  duplicates: number;
  next: EdgeChainState;
}

export function planEdgeAppend(
  state: EdgeChainState,
  records: readonly EdgeRecordWrite[],
  storedDigests: ReadonlyMap<number, string>,
): EdgeAppendPlan {
  let { acknowledged, headDigest } = state;
  const fresh: EdgeRecordWrite[] = [];
  let duplicates = 0;
  for (const r of records) {
    if (r.index < acknowledged) {
      const stored = storedDigests.get(r.index);
      if (stored !== r.digest) {
        return {
          refused: {
            kind: 'fork',
            index: r.index,
            detail: `record ${r.index} is stored with digest ${stored ?? '(unknown)'}, the batch carries ${r.digest} (a rewritten record)`,
          },
          fresh: [],
          duplicates: 0,
          next: state,
        };
      }
      duplicates++;
      continue;
    }
    if (r.index > acknowledged) {
      return {
        refused: { kind: 'gap', expectedIndex: acknowledged, gotIndex: r.index },
        fresh: [],
        duplicates: 0,
        next: state,
      };
    }
    if (r.prevDigest !== headDigest) {
      return {
        refused: {
          kind: 'fork',
          index: r.index,
          detail: `record ${r.index} names previous digest ${r.prevDigest}, the stored chain ends in ${headDigest} (a fork)`,
        },
        fresh: [],
        duplicates: 0,
        next: state,
      };
    }
    fresh.push(r);
    headDigest = r.digest;
    acknowledged++;
  }
  return { fresh, duplicates, next: { acknowledged, headDigest } };
}
