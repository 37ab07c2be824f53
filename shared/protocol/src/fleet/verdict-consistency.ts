/**
 * What a robot's verdict must say of itself to be believed, for the two readers of shipped edge records: the
 * cloud refuses an upload that breaks it (cloud/src/fleet/edge-ingest.ts), and the offline verifier checks a
 * kit's records by it (shared/verifier robot-history.ts). Records are chained by digest and uploaded with the
 * robot's edge key, not signed by the gate, so whoever holds that key could otherwise write "signed" beside a
 * RISK gate that failed (outside review: `verify kit` called such a history valid). The edge signs a command
 * only when all five gates pass (ARCHITECTURE.md §4), and only signed and stopped verdicts carry one.
 */
import { VERTICES } from '../schemas/kernel.js';
import type { VerdictEvent } from '../robot/verdict.js';

type VerdictSummary = Pick<VerdictEvent, 'outcome' | 'gates' | 'violations' | 'commandSeq'>;

/** The ways `verdict` contradicts itself, each a sentence; empty when it is consistent. */
export function verdictContradictions(verdict: VerdictSummary): string[] {
  const problems: string[] = [];
  if (verdict.outcome !== 'signed') {
    if (verdict.commandSeq !== undefined && verdict.outcome !== 'stopped') {
      problems.push(
        `a ${verdict.outcome} verdict names command seq ${verdict.commandSeq}; only signed and stopped ones carry a command`,
      );
    }
    return problems;
  }
  if (verdict.commandSeq === undefined) problems.push('a signed verdict names no command seq');
  const vertices = verdict.gates.map((g) => g.vertex);
  const missing = VERTICES.filter((v) => !vertices.includes(v));
  if (missing.length > 0 || vertices.length !== VERTICES.length) {
    problems.push(
      `a signed verdict must report each of the five gates once, got ${vertices.length === 0 ? 'none' : vertices.join(', ')}`,
    );
  }
  const failed = verdict.gates.filter((g) => !g.passed || g.violations.length > 0).map((g) => g.vertex);
  if (failed.length > 0) problems.push(`a signed verdict with failed gates: ${failed.join(', ')}`);
  if (verdict.violations.length > 0) {
    problems.push(`a signed verdict lists violations: ${verdict.violations[0]?.slice(0, 120)}`);
  }
  return problems;
}
