/**
 * Edge audit records as an edge's outbox writes them (JCS lines chained by SHA-256), built here because
 * the cloud does not depend on the edge package: the same shape, the same digests.
 */
import { sha256Hex } from '@pentagate/crypto';
import { canonicalize, type EdgeAuditRecord, VERTICES } from '@pentagate/protocol';

export const GENESIS = sha256Hex(new Uint8Array(0));

export function digestOf(record: EdgeAuditRecord): string {
  return sha256Hex(canonicalize(record));
}

type Verdict = EdgeAuditRecord['verdict'];

/** The five gates, each passed: what a signed verdict reports (verdictContradictions). */
export const passedGates = (): Verdict['gates'] =>
  VERTICES.map((vertex) => ({ vertex, passed: true, violations: [], evidence: {} }));

/** A signed verdict: seq index + 1 in epoch 1, with `extra` fields (the command's key id, the profile digest). */
export const signedVerdict = (
  robotId: string,
  index: number,
  atMs: number,
  extra: Partial<Verdict> = {},
): Verdict => ({
  v: 1,
  robotId,
  intentId: `intent-${index}`,
  outcome: 'signed',
  atMs,
  violations: [],
  gates: passedGates(),
  commandSeq: index + 1,
  commandEpoch: 1,
  ...extra,
});

/** A veto: no command. */
export const vetoedVerdict = (robotId: string, atMs: number): Verdict => ({
  v: 1,
  robotId,
  outcome: 'vetoed',
  atMs,
  violations: [],
  gates: [],
});

/** `count` chained records of `robotId` from index 0, each with `verdictOf`'s verdict (signed by default). */
export function edgeChain(
  robotId: string,
  count: number,
  startMs = 1_700_000_000_000,
  verdictOf: (robotId: string, index: number, atMs: number) => Verdict = (robotId, index, atMs) =>
    signedVerdict(robotId, index, atMs),
): EdgeAuditRecord[] {
  const out: EdgeAuditRecord[] = [];
  let prev = GENESIS;
  for (let index = 0; index < count; index++) {
    const record: EdgeAuditRecord = {
      v: 1,
      index,
      appendedAtMs: startMs + index,
      prevDigest: prev,
      verdict: verdictOf(robotId, index, startMs + index),
    };
    out.push(record);
    prev = digestOf(record);
  }
  return out;
}
