/** Builders for verdict events, so every outcome has the same shape. */
import type { GateResult, MotorCommand, VerdictEvent, VerdictOutcome } from '@pentagate/protocol';
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
  commandKid?: string;
  cfgDigest?: string;
  speedScale?: number;
  detail?: string;
}

const MAX_VIOLATION_CHARS = 1024;
/**
 * Violations listed per gate and per verdict; the rest are counted in the last line. An intent of 500 points
 * each over every torque limit made a veto of ~3,000 violations: larger than the embedded broker's packet
 * limit (the broker dropped the edge's connection, and mqtt.js re-sent the verdict on every reconnect, so no
 * STOP could leave), and more than the verdict schema and the cloud's ingest take (maxItems 256 and 1,024).
 * What the gate decided does not change; the verdict says how many it did not list.
 */
export const MAX_LISTED_VIOLATIONS = 32;

/** `list` with at most `max` lines, the last one naming how many more there are (with their first's code). */
export function listedViolations(list: readonly string[], max = MAX_LISTED_VIOLATIONS): string[] {
  const short = (v: string) =>
    v.length > MAX_VIOLATION_CHARS ? `${v.slice(0, MAX_VIOLATION_CHARS - 1)}…` : v;
  if (list.length <= max) return list.map(short);
  const unlisted = list.length - (max - 1);
  // every violation starts with its registered code (edgeViolation); the count takes the first unlisted one's
  const code = /^[A-Z]+\.[A-Z_]+/.exec(list[max - 1]!)?.[0];
  return [
    ...list.slice(0, max - 1).map(short),
    `${code === undefined ? '' : `${code}: `}and ${unlisted} more violations not listed (${list.length} in all)`,
  ];
}

export function verdict(f: VerdictFields): VerdictEvent {
  const gates = (f.gates ?? []).map((g) =>
    g.violations.length > MAX_LISTED_VIOLATIONS ? { ...g, violations: listedViolations(g.violations) } : g,
  );
  const violations = listedViolations(f.violations ?? (f.gates ?? []).flatMap((g) => g.violations));
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
  if (f.commandKid !== undefined) event.commandKid = f.commandKid;
  if (f.cfgDigest !== undefined) event.cfgDigest = f.cfgDigest;
  if (f.speedScale !== undefined) event.speedScale = f.speedScale;
  if (f.detail !== undefined) event.detail = f.detail.slice(0, 2048);
  return event;
}

/**
 * What a verdict says of the command it records (signed and stopped outcomes): its seq and epoch, for the
 * command history, and its MAC key id and profile digest, which the fleet compares with the robot's
 * registration.
 */
export function commandFields(
  command: Pick<MotorCommand, 'seq' | 'epoch' | 'kid' | 'cfgDigest'>,
): Pick<VerdictFields, 'commandSeq' | 'commandEpoch' | 'commandKid' | 'cfgDigest'> {
  return {
    commandSeq: command.seq,
    commandEpoch: command.epoch,
    commandKid: command.kid,
    cfgDigest: command.cfgDigest,
  };
}

/** A veto (or any outcome without a command) as trapAndSign returns it. */
export function veto(f: VerdictFields): TrapResult {
  return { kind: 'veto', verdict: verdict(f) };
}
