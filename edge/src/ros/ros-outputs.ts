/**
 * What the edge publishes on ROS 2 (and records): verdict events → std_msgs/String (JSON) and
 * diagnostic_msgs/DiagnosticArray; signed commands → std_msgs/String (JSON).
 */
import { type MotorCommand, type VerdictEvent, canonicalize } from '@pentagate/protocol';
import { msToTime } from './ros-fields.js';

/** A verdict event as std_msgs/String: canonical JSON (RFC 8785), so subscribers can hash it. */
export function verdictToRosString(verdict: VerdictEvent): { data: string } {
  return { data: canonicalize(verdict) };
}

/** A signed motor command as std_msgs/String: canonical JSON, exactly what `acceptMotorCommand` takes. */
export function commandToRosString(command: MotorCommand): { data: string } {
  return { data: canonicalize(command) };
}

/** diagnostic_msgs/DiagnosticStatus levels. */
export const DIAGNOSTIC_LEVEL = { ok: 0, warn: 1, error: 2, stale: 3 } as const;

const MAX_DIAGNOSTIC_VALUE = 512;

function diagnosticValue(value: unknown): string {
  const s = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return s.length > MAX_DIAGNOSTIC_VALUE ? `${s.slice(0, MAX_DIAGNOSTIC_VALUE - 1)}…` : s;
}

/**
 * A verdict as diagnostic_msgs/DiagnosticArray: one status per gate (`pentagate/<robot>/<VERTEX>`, OK or ERROR,
 * the first violation as message, the gate's evidence as key/values), or a single `…/verdict` status for
 * verdicts without gate results (rejected input, consent timeouts). rqt_robot_monitor and Foxglove show these.
 */
export function verdictToDiagnosticArray(verdict: VerdictEvent): Record<string, unknown> {
  const header = { stamp: msToTime(verdict.atMs), frame_id: '' };
  const prefix = `pentagate/${verdict.robotId}`;
  const common = [
    { key: 'outcome', value: verdict.outcome },
    ...(verdict.intentId ? [{ key: 'intentId', value: verdict.intentId }] : []),
    ...(verdict.commandSeq !== undefined ? [{ key: 'commandSeq', value: String(verdict.commandSeq) }] : []),
    ...(verdict.evidenceDigest ? [{ key: 'evidenceDigest', value: verdict.evidenceDigest }] : []),
  ];
  const ok = verdict.outcome === 'signed';
  if (verdict.gates.length === 0) {
    return {
      header,
      status: [
        {
          level: ok
            ? DIAGNOSTIC_LEVEL.ok
            : verdict.outcome === 'awaiting-consent'
              ? DIAGNOSTIC_LEVEL.warn
              : DIAGNOSTIC_LEVEL.error,
          name: `${prefix}/verdict`,
          message: diagnosticValue(verdict.violations[0] ?? verdict.detail ?? verdict.outcome),
          hardware_id: verdict.robotId,
          values: [
            ...common,
            ...verdict.violations
              .slice(1)
              .map((v, i) => ({ key: `violation${i + 2}`, value: diagnosticValue(v) })),
          ],
        },
      ],
    };
  }
  return {
    header,
    status: verdict.gates.map((g) => ({
      level: g.passed ? DIAGNOSTIC_LEVEL.ok : DIAGNOSTIC_LEVEL.error,
      name: `${prefix}/${g.vertex}`,
      message: diagnosticValue(g.passed ? 'passed' : (g.violations[0] ?? 'failed')),
      hardware_id: verdict.robotId,
      values: [
        ...common,
        ...Object.entries(g.evidence).map(([key, value]) => ({ key, value: diagnosticValue(value) })),
      ],
    })),
  };
}
