/**
 * Robot histories in an audit kit: the `edge.verdict` entries a cloud stored from each robot's audit
 * outbox. For every robot (per tenant) the kit must hold an unbroken chain — records 0, 1, 2, … in log
 * order, each naming the SHA-256 of the JCS record before it (record 0: SHA-256 of nothing), each entry's
 * subjectDigest the digest of its record, every verdict the robot's own — and a signed-command history
 * without holes: command seqs strictly increase, epochs never go back, and inside one epoch each command's
 * seq is the previous one's plus one. The edge bumps the epoch on every stop, fault, configuration change
 * and restart, and only then may seqs be skipped (a restarted edge jumps past its previous reservation), so
 * a missing command inside an epoch is a hole. That command rule is @pentagate/protocol's stepCommandHistory,
 * which the cloud also applies to every upload, so a kit's records break it only if the cloud's log predates it.
 * Nor may a verdict contradict itself: a signed one reports all five gates passed (verdictContradictions, also
 * applied by the cloud's ingest).
 */
import { sha256Hex } from '@pentagate/crypto';
import {
  type AuditEntry,
  canonicalize,
  conforms,
  type EdgeAuditRecord,
  EdgeAuditRecordSchema,
  stepCommandHistory,
  verdictContradictions,
} from '@pentagate/protocol';
import type { ReportBuilder } from './report.js';

export const EDGE_RECORD_ENTRY = 'edge.verdict';
const EMPTY_DIGEST = sha256Hex(new Uint8Array(0));

interface RobotHistory {
  robotId: string;
  records: number;
  commands: number;
  firstSeq?: number;
  lastSeq?: number;
  epochs: Set<number>;
  prevDigest: string;
  lastEpoch?: number;
  problems: string[];
}

function checkCommand(h: RobotHistory, record: EdgeAuditRecord, where: string): void {
  const seq = record.verdict.commandSeq;
  if (seq === undefined) return;
  h.commands++;
  // the rule itself is the one the cloud refuses an upload by (@pentagate/protocol command-history.ts)
  const step = stepCommandHistory(h, record.verdict);
  for (const problem of step.problems) h.problems.push(`${where}: ${problem}`);
  h.lastSeq = step.next.lastSeq;
  h.lastEpoch = step.next.lastEpoch;
  if (h.lastEpoch !== undefined) h.epochs.add(h.lastEpoch);
  h.firstSeq ??= seq;
}

function checkRecord(h: RobotHistory, entry: AuditEntry): void {
  const where = `${h.robotId} entry ${entry.index}`;
  const record = entry.data.record;
  if (!conforms(EdgeAuditRecordSchema, record)) {
    h.problems.push(`${where}: data.record is not an edge audit record`);
    return;
  }
  const digest = sha256Hex(canonicalize(record));
  if (record.index !== h.records)
    h.problems.push(`${where}: record ${record.index} where ${h.records} was expected`);
  if (record.prevDigest !== h.prevDigest)
    h.problems.push(`${where}: record ${record.index} does not chain to the record before it`);
  if (entry.subjectDigest !== digest)
    h.problems.push(`${where}: subjectDigest is not the record's digest ${digest}`);
  if (record.verdict.robotId !== h.robotId)
    h.problems.push(`${where}: a verdict of robot ${record.verdict.robotId}`);
  for (const problem of verdictContradictions(record.verdict)) h.problems.push(`${where}: ${problem}`);
  h.records++;
  h.prevDigest = digest;
  checkCommand(h, record, where);
}

function describe(h: RobotHistory): string {
  const epochs = [...h.epochs].sort((a, b) => a - b);
  const commands =
    h.commands === 0
      ? 'no signed commands'
      : `${h.commands} signed commands, seq ${h.firstSeq}..${h.lastSeq} over ${epochs.length} epoch(s)`;
  return `records 0..${h.records - 1} chained, ${commands}, no holes`;
}

/**
 * Reads a kit's entries one by one (audit-kit.ts streams them), then adds one check per robot with shipped
 * records; a kit without edge records adds none.
 */
export class RobotHistoriesCheck {
  readonly #histories = new Map<string, RobotHistory>();

  add(entry: AuditEntry): void {
    if (entry.type !== EDGE_RECORD_ENTRY) return;
    const robotId = typeof entry.data.robotId === 'string' ? entry.data.robotId : '(no robot id)';
    const key = `${entry.tenantId ?? ''}\u0000${robotId}`;
    let h = this.#histories.get(key);
    if (!h) {
      h = { robotId, records: 0, commands: 0, epochs: new Set(), prevDigest: EMPTY_DIGEST, problems: [] };
      this.#histories.set(key, h);
    }
    checkRecord(h, entry);
  }

  finish(report: ReportBuilder): void {
    for (const h of this.#histories.values()) {
      const shown = h.problems.slice(0, 5).join('; ');
      const more = h.problems.length > 5 ? `; and ${h.problems.length - 5} more` : '';
      report.check(`robot history ${h.robotId}`, h.problems.length === 0, describe(h), `${shown}${more}`);
    }
  }
}
