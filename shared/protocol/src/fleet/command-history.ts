/**
 * The signed-command history rule of a robot's audit chain, in one place for its two readers: the offline
 * verifier (`pentagate verify kit`, shared/verifier robot-history.ts) checks a kit's stored records with it,
 * and the cloud refuses an uploaded batch that breaks it (cloud/src/fleet/edge-ingest.ts), so a record the
 * verifier would reject never reaches the append-only log, where it would invalidate every kit after it.
 *
 * The rule follows the edge's sequence store (edge/src/trap/sequence-store.ts, ARCHITECTURE.md §4): a
 * command seq strictly increases across restarts and is never reused or reset; the epoch is bumped on every
 * stop, fault, configuration change and restart, never lowered, and may be skipped. Inside one epoch seqs
 * are handed out one by one, so each command's seq is the previous one's plus one; only across an epoch bump
 * may seqs be skipped (a restarted edge jumps past its previous reservation). A record without a command
 * seq (a veto) takes no part in the rule.
 */

/** The last signed command of a robot's history so far; both undefined before its first command. */
export interface CommandHistory {
  lastSeq?: number;
  /** The last epoch a command carried (a command without an epoch leaves it unchanged). */
  lastEpoch?: number;
}

export interface CommandStep {
  /** The rules this command breaks, each a sentence; empty when it continues the history. */
  problems: string[];
  /** The history with this command as its last (the history unchanged for a record without a seq). */
  next: CommandHistory;
}

/** Checks one record's command (its verdict's commandSeq and commandEpoch) against the history before it. */
export function stepCommandHistory(
  history: CommandHistory,
  command: { commandSeq?: number | undefined; commandEpoch?: number | undefined },
): CommandStep {
  const { commandSeq: seq, commandEpoch: epoch } = command;
  if (seq === undefined) return { problems: [], next: history };
  const { lastSeq, lastEpoch } = history;
  const problems: string[] = [];
  if (lastSeq !== undefined && seq <= lastSeq) {
    problems.push(`command seq ${seq} after seq ${lastSeq} (seqs must strictly increase)`);
  }
  if (epoch === undefined) {
    problems.push(`command seq ${seq} carries no epoch, so its continuity cannot be shown`);
    return { problems, next: { lastSeq: seq, ...(lastEpoch === undefined ? {} : { lastEpoch }) } };
  }
  if (lastEpoch !== undefined && epoch < lastEpoch) {
    problems.push(`epoch ${epoch} after epoch ${lastEpoch} (epochs never go back)`);
  }
  // a seq at or below the last is reported above; a "hole" of zero or fewer commands would only repeat it
  if (lastEpoch === epoch && lastSeq !== undefined && seq > lastSeq + 1) {
    problems.push(
      `seq ${seq} follows seq ${lastSeq} in epoch ${epoch}: a hole of ${seq - lastSeq - 1} command(s)`,
    );
  }
  return { problems, next: { lastSeq: seq, lastEpoch: epoch } };
}
