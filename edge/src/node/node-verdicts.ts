/**
 * Verdicts the node itself issues, for what never reaches a gate:
 * - a message it could not hand to the gate (not UTF-8, not JSON, too large, on a topic it does not
 *   serve). Bad input never crashes the node and never yields a signature; it gets a verdict that names
 *   the problem ("Bad input");
 * - a STOP the node orders itself (shutdown, audit outbox failure).
 */
import {
  type EdgeStopCode,
  type EdgeViolationCode,
  edgeViolation,
  type InputRefusalCode,
  type MotorCommand,
  type VerdictEvent,
} from '@pentagate/protocol';
import { commandFields } from '../trap/verdicts.js';

/** Violation texts are capped by the VerdictEvent schema. */
const MAX_VIOLATION_CHARS = 1000;

function violation(code: EdgeViolationCode, detail: string): string {
  const text = edgeViolation(code, detail);
  return text.length > MAX_VIOLATION_CHARS ? `${text.slice(0, MAX_VIOLATION_CHARS - 1)}…` : text;
}

export function rejectedInputVerdict(
  robotId: string,
  code: InputRefusalCode,
  detail: string,
  atMs: number,
): VerdictEvent {
  return {
    v: 1,
    robotId,
    outcome: 'rejected-input',
    atMs,
    violations: [violation(`INPUT.${code}`, detail)],
    gates: [],
  };
}

export function nodeStopVerdict(stop: MotorCommand, code: EdgeStopCode, detail: string): VerdictEvent {
  return {
    v: 1,
    robotId: stop.robotId,
    intentId: stop.intentId,
    outcome: 'stopped',
    atMs: stop.issuedAt,
    violations: [violation(`EDGE.${code}`, detail)],
    gates: [],
    evidenceDigest: stop.evidenceDigest,
    ...commandFields(stop),
  };
}
