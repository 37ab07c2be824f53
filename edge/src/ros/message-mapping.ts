/**
 * The one mapping between ROS 2 messages and the edge's wire shapes, shared by the live ROS 2 transport and the
 * MCAP replay, so what is tested on a recording is exactly what runs on the robot.
 *
 * In: sensor_msgs/JointState, BatteryState, Range, LaserScan, geometry_msgs/PoseStamped → telemetry frames;
 * trajectory_msgs/JointTrajectory and geometry_msgs/Twist → intents; std_msgs/String → consent envelopes (or a
 * firmware report, JSON `{ imageSha256, version }`, on a firmware source).
 * Out: verdict events → std_msgs/String (JSON) and diagnostic_msgs/DiagnosticArray; signed commands →
 * std_msgs/String (JSON).
 *
 * Staleness: `header.stamp` is the time the data was measured. A frame already older than its source's
 * `maxAgeMs` when it is handled, or stamped further in the future than the allowed clock skew, or stamped
 * earlier than the previous frame of its source, is skipped (counted, with a reason): a frame delayed in a DDS
 * queue must not pass for fresh evidence. The stamp is compared with the handler's clock, so both must be the
 * same clock (see edge/README.md, "Clocks"). Non-finite values are skipped, never clamped.
 */
import {
  type Intent,
  type MotorCommand,
  type TelemetryFrame,
  type VerdictEvent,
  canonicalize,
  readJson,
} from '@pentagate/protocol';
import type { RosBinding } from './ros-bindings.js';
import { ROS_TYPES } from './ros-bindings.js';
import {
  FieldProblem,
  type RosRecord,
  anyNumber,
  asRecord,
  field,
  finiteArray,
  finiteNumber,
  msToTime,
  numberArray,
  text,
  textArray,
  timeMs,
} from './ros-fields.js';
import { normalizeRosType } from './ros-message-definitions.js';
import { type ProximityReading, nearestScanReturn, rangeReading } from './scan-proximity.js';

export type MappingSkipReason =
  | 'wrong-type'
  | 'missing-field'
  | 'non-finite'
  | 'malformed'
  | 'no-valid-return'
  | 'unstamped'
  | 'stale-stamp'
  | 'future-stamp'
  | 'foreign-clock'
  | 'stamp-backwards';

export const MAPPING_SKIP_REASONS: readonly MappingSkipReason[] = [
  'wrong-type',
  'missing-field',
  'non-finite',
  'malformed',
  'no-valid-return',
  'unstamped',
  'stale-stamp',
  'future-stamp',
  'foreign-clock',
  'stamp-backwards',
];

/** A stamp this far from the handler's clock is from another clock, not a late or early message. */
const FOREIGN_CLOCK_MS = 3_600_000;

function durationText(ms: number): string {
  const abs = Math.abs(ms);
  if (abs >= 86_400_000) return `${(abs / 86_400_000).toFixed(1)} days`;
  if (abs >= 3_600_000) return `${(abs / 3_600_000).toFixed(1)} h`;
  return `${abs} ms`;
}

export type MappedMessage =
  | { kind: 'telemetry'; frame: TelemetryFrame }
  | { kind: 'intent'; intent: Intent }
  | { kind: 'consent'; envelope: unknown }
  | { kind: 'skip'; reason: MappingSkipReason; detail: string };

export interface RosMessageMapperOptions {
  robotId: string;
  /** Refuse stamps further ahead of the handler's clock than this, ms (default 500). */
  maxFutureSkewMs?: number;
  /**
   * Check header stamps against the handler's clock (default true). Turn off only when the stamps come from
   * another clock (a simulator with use_sim_time) and say so in the deployment notes.
   */
  checkStamps?: boolean;
}

/** Largest std_msgs/String payload taken as JSON (a consent envelope is about 1 KiB). */
const MAX_STRING_BYTES = 64 * 1024;

class Skip extends Error {
  constructor(
    readonly reason: MappingSkipReason,
    message: string,
  ) {
    super(message);
  }
}

export class RosMessageMapper {
  readonly #robotId: string;
  readonly #maxFutureSkewMs: number;
  readonly #checkStamps: boolean;
  readonly #seq = new Map<string, number>();
  readonly #lastStampMs = new Map<string, number>();
  readonly #skips = new Map<MappingSkipReason, number>(MAPPING_SKIP_REASONS.map((r) => [r, 0]));
  #intents = 0;

  constructor(options: RosMessageMapperOptions) {
    this.#robotId = options.robotId;
    this.#maxFutureSkewMs = options.maxFutureSkewMs ?? 500;
    this.#checkStamps = options.checkStamps ?? true;
  }

  /** Skipped messages by reason since construction. */
  skipCounts(): Record<MappingSkipReason, number> {
    return Object.fromEntries(this.#skips) as Record<MappingSkipReason, number>;
  }

  /**
   * Maps one decoded message of `binding`'s topic, handled at `nowMs` (Unix ms, the handler's clock).
   * `actualType` is the type the message was decoded as, when known; a mismatch is a `wrong-type` skip.
   * Never throws.
   */
  map(binding: RosBinding, message: unknown, nowMs: number, actualType?: string): MappedMessage {
    try {
      if (actualType !== undefined && normalizeRosType(actualType) !== binding.type) {
        throw new Skip(
          'wrong-type',
          `${binding.topic}: expected ${binding.type}, got ${normalizeRosType(actualType)}`,
        );
      }
      const msg = asRecord(message, binding.type);
      const target = binding.target;
      if (target.kind === 'consent') return { kind: 'consent', envelope: this.#json(msg, binding) };
      if (target.kind === 'intent') return { kind: 'intent', intent: this.#intent(binding, msg, nowMs) };
      return { kind: 'telemetry', frame: this.#telemetry(binding, msg, nowMs) };
    } catch (err) {
      const skip =
        err instanceof Skip || err instanceof FieldProblem
          ? { reason: err.reason, detail: err.message }
          : {
              reason: 'malformed' as const,
              detail: `${binding.topic}: ${(err as Error)?.message ?? String(err)}`,
            };
      this.#skips.set(skip.reason, (this.#skips.get(skip.reason) ?? 0) + 1);
      return {
        kind: 'skip',
        reason: skip.reason,
        detail: skip.detail.startsWith(binding.topic) ? skip.detail : `${binding.topic}: ${skip.detail}`,
      };
    }
  }

  #json(msg: RosRecord, binding: RosBinding): unknown {
    const data = text(msg, 'data', binding.type);
    try {
      return readJson(data, { what: `${binding.topic} data`, maxBytes: MAX_STRING_BYTES });
    } catch (err) {
      throw new Skip('malformed', (err as Error).message);
    }
  }

  #nextSeq(source: string): number {
    const seq = (this.#seq.get(source) ?? 0) + 1;
    this.#seq.set(source, seq);
    return seq;
  }

  /** header.stamp → Unix ms, after the staleness checks described at the top of this file. */
  #stampMs(msg: RosRecord, binding: RosBinding, maxAgeMs: number, nowMs: number): number {
    const header = asRecord(field(msg, 'header', binding.type), `${binding.type}.header`);
    const stampMs = timeMs(header, 'stamp', `${binding.type}.header`);
    // Stamps from another clock (use_sim_time) say nothing about age on this one: the frame is stamped with
    // the handler's clock instead, since the gates age a frame from min(arrival, stamp).
    if (!this.#checkStamps) return nowMs;
    if (stampMs === 0) {
      throw new Skip(
        'unstamped',
        'header.stamp is zero (the publisher did not stamp it); frames without a time cannot be aged',
      );
    }
    if (Math.abs(nowMs - stampMs) > FOREIGN_CLOCK_MS) {
      throw new Skip(
        'foreign-clock',
        `stamped ${new Date(stampMs).toISOString()}, ${durationText(nowMs - stampMs)} ${stampMs < nowMs ? 'before' : 'after'} the edge's clock (on replay: the log time): another clock (an unsynchronized GPS receiver, a simulation); fix the time sync, or age frames by arrival (--ignore-stamps on replay, --ros-ignore-stamps live)`,
      );
    }
    if (nowMs - stampMs > maxAgeMs) {
      throw new Skip('stale-stamp', `stamped ${nowMs - stampMs} ms ago, source allows ${maxAgeMs} ms`);
    }
    if (stampMs - nowMs > this.#maxFutureSkewMs) {
      throw new Skip(
        'future-stamp',
        `stamped ${stampMs - nowMs} ms in the future (allowed skew ${this.#maxFutureSkewMs} ms)`,
      );
    }
    return stampMs;
  }

  #telemetry(binding: RosBinding, msg: RosRecord, nowMs: number): TelemetryFrame {
    const target = binding.target;
    if (target.kind !== 'telemetry') throw new Skip('wrong-type', 'not a telemetry binding');
    const source = target.source;
    const stampMs =
      binding.type === ROS_TYPES.string ? nowMs : this.#stampMs(msg, binding, target.maxAgeMs, nowMs);
    const last = this.#lastStampMs.get(source);
    if (last !== undefined && stampMs < last) {
      throw new Skip('stamp-backwards', `stamp ${stampMs} is earlier than the previous ${last} of ${source}`);
    }
    const body = this.#telemetryBody(binding, msg);
    this.#lastStampMs.set(source, stampMs);
    const common = {
      v: 1 as const,
      robotId: this.#robotId,
      source,
      seq: this.#nextSeq(source),
      stampMs: Math.max(0, stampMs),
    };
    return { ...common, ...body } as TelemetryFrame;
  }

  #telemetryBody(binding: RosBinding, msg: RosRecord): Record<string, unknown> {
    const t = binding.type;
    switch (t) {
      case ROS_TYPES.jointState: {
        const names = textArray(msg, 'name', t);
        const positionsRad = finiteArray(msg, 'position', t);
        const velocitiesRadS = finiteArray(msg, 'velocity', t);
        const effortsNm = finiteArray(msg, 'effort', t);
        // JointState allows empty velocity/effort arrays ("not available"); the gates need measured effort.
        for (const [name, xs] of [
          ['position', positionsRad],
          ['velocity', velocitiesRadS],
          ['effort', effortsNm],
        ] as const) {
          if (xs.length !== names.length) {
            throw new Skip(
              'missing-field',
              `${t}.${name}: expected ${names.length} values (one per joint), got ${xs.length}`,
            );
          }
        }
        return { kind: 'joint-state', names, positionsRad, velocitiesRadS, effortsNm };
      }
      case ROS_TYPES.battery: {
        const voltageV = finiteNumber(msg, 'voltage', t);
        // sensor_msgs/BatteryState: current is negative while discharging; the frame counts discharge positive.
        const currentA = -finiteNumber(msg, 'current', t);
        let stateOfCharge = anyNumber(msg, 'percentage', t);
        if (!Number.isFinite(stateOfCharge)) {
          // "If the percentage is not measured, set to NaN": fall back to charge / capacity when both are known.
          const charge = anyNumber(msg, 'charge', t);
          const capacity = anyNumber(msg, 'capacity', t);
          if (!(Number.isFinite(charge) && Number.isFinite(capacity) && capacity > 0)) {
            throw new Skip('non-finite', `${t}.percentage is NaN and charge/capacity cannot replace it`);
          }
          stateOfCharge = charge / capacity;
        }
        const temperatureC = anyNumber(msg, 'temperature', t);
        return {
          kind: 'battery',
          voltageV,
          currentA: currentA === 0 ? 0 : currentA,
          stateOfCharge,
          ...(Number.isFinite(temperatureC) ? { temperatureC } : {}),
        };
      }
      case ROS_TYPES.poseStamped: {
        const pose = asRecord(field(msg, 'pose', t), `${t}.pose`);
        const p = asRecord(field(pose, 'position', `${t}.pose`), `${t}.pose.position`);
        const q = asRecord(field(pose, 'orientation', `${t}.pose`), `${t}.pose.orientation`);
        const w = `${t}.pose`;
        return {
          kind: 'pose',
          positionM: { x: finiteNumber(p, 'x', w), y: finiteNumber(p, 'y', w), z: finiteNumber(p, 'z', w) },
          orientation: {
            x: finiteNumber(q, 'x', w),
            y: finiteNumber(q, 'y', w),
            z: finiteNumber(q, 'z', w),
            w: finiteNumber(q, 'w', w),
          },
        };
      }
      case ROS_TYPES.laserScan:
      case ROS_TYPES.range:
        return this.#proximityBody(binding, msg);
      case ROS_TYPES.string: {
        const report = asRecord(this.#json(msg, binding), `${binding.topic} firmware report`);
        return { kind: 'firmware', imageSha256: report.imageSha256, version: report.version };
      }
      default:
        throw new Skip('wrong-type', `no telemetry mapping for ${t}`);
    }
  }

  #proximityBody(binding: RosBinding, msg: RosRecord): Record<string, unknown> {
    const t = binding.type;
    let reading: ProximityReading;
    if (t === ROS_TYPES.laserScan) {
      const angleMinRad = finiteNumber(msg, 'angle_min', t);
      const angleIncrementRad = finiteNumber(msg, 'angle_increment', t);
      const rangeMinM = finiteNumber(msg, 'range_min', t);
      const rangeMaxM = finiteNumber(msg, 'range_max', t);
      const rangesM = numberArray(msg, 'ranges', t);
      const sector = binding.target.kind === 'telemetry' ? binding.target.sector : undefined;
      reading = nearestScanReturn({ angleMinRad, angleIncrementRad, rangeMinM, rangeMaxM, rangesM }, sector);
    } else {
      reading = rangeReading(
        anyNumber(msg, 'range', t),
        finiteNumber(msg, 'min_range', t),
        finiteNumber(msg, 'max_range', t),
      );
    }
    if (reading.status === 'invalid') throw new Skip('no-valid-return', reading.detail);
    if (reading.status === 'clear') return { kind: 'proximity', nearestHumanM: null };
    return { kind: 'proximity', nearestHumanM: reading.distanceM, sectorRad: reading.bearingRad };
  }

  #intent(binding: RosBinding, msg: RosRecord, nowMs: number): Intent {
    const target = binding.target;
    if (target.kind !== 'intent') throw new Skip('wrong-type', 'not an intent binding');
    this.#intents += 1;
    const common = {
      v: 1 as const,
      intentId: `ros.${binding.role}.${nowMs}.${this.#intents}`,
      robotId: this.#robotId,
      ...(target.moveClass !== undefined ? { moveClass: target.moveClass } : {}),
      ...(target.safetyCritical !== undefined ? { safetyCritical: target.safetyCritical } : {}),
    };
    const t = binding.type;
    if (t === ROS_TYPES.twist) {
      const vec = (name: string) => {
        const v = asRecord(field(msg, name, t), `${t}.${name}`);
        const w = `${t}.${name}`;
        return { x: finiteNumber(v, 'x', w), y: finiteNumber(v, 'y', w), z: finiteNumber(v, 'z', w) };
      };
      return {
        ...common,
        kind: 'base-twist',
        linearMps: vec('linear'),
        angularRadS: vec('angular'),
        durationMs: target.twistDurationMs,
      };
    }
    const jointNames = textArray(msg, 'joint_names', t);
    const rawPoints = field(msg, 'points', t);
    if (!Array.isArray(rawPoints)) throw new FieldProblem('wrong-type', `${t}.points: expected an array`);
    const points = rawPoints.map((raw, i) => {
      const w = `${t}.points[${i}]`;
      const p = asRecord(raw, w);
      const velocitiesRadS = finiteArray(p, 'velocities', w);
      const effortsNm = finiteArray(p, 'effort', w);
      return {
        positionsRad: finiteArray(p, 'positions', w),
        // Empty arrays mean "not given" in trajectory_msgs; the intent omits them.
        ...(velocitiesRadS.length > 0 ? { velocitiesRadS } : {}),
        ...(effortsNm.length > 0 ? { effortsNm } : {}),
        timeFromStartMs: timeMs(p, 'time_from_start', w),
      };
    });
    return { ...common, kind: 'joint-trajectory', jointNames, points };
  }
}

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
