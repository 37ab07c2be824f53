/** Builders for verdict events, so every outcome has the same shape. */
import type { GateResult, VerdictEvent, VerdictOutcome } from '@pentagate/protocol';
import type { TrapResult } from './trap-result.js';

export interface VerdictFields {
  robotId: string;
  intentId?: string | undefined;
  outcome: VerdictOutcome;
  atMs: number;
  gates?: GateResult[];
  violations?: string[];
  evidenceDigest?: string;
  commandSeq?: number;
  commandEpoch?: number;
  speedScale?: number;
  detail?: string;
}

const MAX_VIOLATION_CHARS = 1024;

export function verdict(f: VerdictFields): VerdictEvent {
  const gates = f.gates ?? [];
  const violations = (f.violations ?? gates.flatMap((g) => g.violations)).map((v) =>
    v.length > MAX_VIOLATION_CHARS ? `${v.slice(0, MAX_VIOLATION_CHARS - 1)}…` : v,
  );
  const event: VerdictEvent = {
    v: 1,
    robotId: f.robotId,
    outcome: f.outcome,
    atMs: f.atMs,
    violations,
    gates,
  };
  if (f.intentId !== undefined) event.intentId = f.intentId;
  if (f.evidenceDigest !== undefined) event.evidenceDigest = f.evidenceDigest;
  if (f.commandSeq !== undefined) event.commandSeq = f.commandSeq;
  if (f.commandEpoch !== undefined) event.commandEpoch = f.commandEpoch;
  if (f.speedScale !== undefined) event.speedScale = f.speedScale;
  if (f.detail !== undefined) event.detail = f.detail.slice(0, 2048);
  return event;
}

/** A veto (or any outcome without a command) as trapAndSign returns it. */
export function veto(f: VerdictFields): TrapResult {
  return { kind: 'veto', verdict: verdict(f) };
}
