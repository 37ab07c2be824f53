/**
 * The chain rule for shipped edge records, one pure function both stores run inside their transaction:
 * a record below the stored head must be the one stored (same digest: a duplicate, kept once); the record
 * at the head must name the head's digest as its previous digest; a record beyond the head is a gap.
 * Anything else is a fork or a rewritten record, and the batch is refused whole. The new records' signed
 * commands must also continue the robot's command history — the rule the offline verifier checks a kit by
 * (@pentagate/protocol stepCommandHistory) — starting from the last command the store holds: a record that
 * breaks it would be kept forever in the append-only log and make every audit kit after it invalid.
 * Duplicates were checked when first stored, so only fresh records are stepped.
 */
import { type CommandHistory, stepCommandHistory } from '@pentagate/protocol';
import type { EdgeAppendResult, EdgeChainState, EdgeRecordWrite } from './fleet-store.js';

export interface EdgeAppendPlan {
  refused?: Extract<EdgeAppendResult, { status: 'refused' }>['refusal'];
  /** Records to store, in order. */
  fresh: EdgeRecordWrite[];
  duplicates: number;
  next: EdgeChainState;
  /** The command history after the fresh records. */
  nextHistory: CommandHistory;
}

export function planEdgeAppend(
  state: EdgeChainState,
  records: readonly EdgeRecordWrite[],
  storedDigests: ReadonlyMap<number, string>,
  history: CommandHistory,
): EdgeAppendPlan {
  let { acknowledged, headDigest } = state;
  let commands = history;
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
          nextHistory: history,
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
        nextHistory: history,
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
        nextHistory: history,
      };
    }
    const step = stepCommandHistory(commands, r);
    if (step.problems.length > 0) {
      return {
        refused: { kind: 'history', index: r.index, detail: step.problems.join('; ') },
        fresh: [],
        duplicates: 0,
        next: state,
        nextHistory: history,
      };
    }
    commands = step.next;
    fresh.push(r);
    headDigest = r.digest;
    acknowledged++;
  }
  return { fresh, duplicates, next: { acknowledged, headDigest }, nextHistory: commands };
}
