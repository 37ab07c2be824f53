/**
 * The one mapping from ROS 2 messages to the edge's wire shapes, shared by the live ROS 2 transport and the
 * replay of recordings, so what is tested on a recording is exactly what runs on the robot. This file routes a
 * message by its binding and keeps the per-source state (seq, last stamp, skip counts); each message family maps
 * its own fields:
 *   joint-messages.ts      sensor_msgs/JointState → joint-state; trajectory_msgs/JointTrajectory → intent
 *   base-messages.ts       geometry_msgs/PoseStamped, PoseWithCovarianceStamped, nav_msgs/Odometry → pose;
 *                          geometry_msgs/Twist,
 *                          TwistStamped, ackermann_msgs/AckermannDriveStamped → base-twist intent
 *   proximity-messages.ts  sensor_msgs/LaserScan, Range, PointCloud2 → proximity
 *   battery-messages.ts    sensor_msgs/BatteryState → battery
 *   imu-messages.ts        sensor_msgs/Imu → checked, then counted as `not-gated`
 *   std_msgs/String        → consent envelopes, or a firmware report (JSON `{ imageSha256, version }`)
 * What the edge publishes is in ros-outputs.ts.
 *
 * Stamps (header-stamp.ts): a stamped telemetry frame is aged against its source's `maxAgeMs`; a stamped command
 * (TwistStamped, AckermannDriveStamped) against the time it is held (`twistDurationMs`): a command that waited
 * in a queue longer than it was meant to last is over. Zero stamps and stamps from another clock are skipped
 * with their own reasons; a telemetry stamp earlier than the previous one of its source is `stamp-backwards`.
 * JointTrajectory keeps its header unchecked: a zero stamp there means "start now" (trajectory_msgs). A telemetry
 * role with a `frameId` override refuses messages in any other frame (`wrong-frame`). Non-finite values are
 * skipped, never clamped.
 */
import { type Intent, type TelemetryFrame, readJson } from '@pentagate/protocol';
import {
  ackermannVelocity,
  odometryBody,
  poseStampedBody,
  poseWithCovarianceStampedBody,
  twistStampedVelocity,
  twistVelocity,
} from './base-messages.js';
import { batteryBody } from './battery-messages.js';
import { checkedStampMs } from './header-stamp.js';
import { scanDurationMs } from './scan-duration.js';
import { checkImu } from './imu-messages.js';
import { jointStateBody, jointTrajectoryBody } from './joint-messages.js';
import { MAPPING_SKIP_REASONS, MappingSkip, type MappingSkipReason } from './mapping-skip.js';
import { odometryFrameKind } from './odometry-frames.js';
import { proximityBody } from './proximity-messages.js';
import type { RosBinding, RosTarget } from './ros-bindings.js';
import { ROS_TYPES } from './ros-types.js';
import { FieldProblem, type RosRecord, asRecord, headerFrameId, text } from './ros-fields.js';
import { normalizeRosType } from './ros-message-definitions.js';

export { MAPPING_SKIP_REASONS, type MappingSkipReason } from './mapping-skip.js';

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

type IntentTarget = Extract<RosTarget, { kind: 'intent' }>;
type TelemetryTarget = Extract<RosTarget, { kind: 'telemetry' }>;

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
        throw new MappingSkip(
          'wrong-type',
          `${binding.topic}: expected ${binding.type}, got ${normalizeRosType(actualType)}`,
        );
      }
      const msg = asRecord(message, binding.type);
      const target = binding.target;
      switch (target.kind) {
        case 'consent':
          return { kind: 'consent', envelope: this.#json(msg, binding) };
        case 'intent':
          return { kind: 'intent', intent: this.#intent(binding, target, msg, nowMs) };
        case 'telemetry':
          return { kind: 'telemetry', frame: this.#telemetry(binding, target, msg, nowMs) };
        case 'observed':
          this.#stampMs(msg, binding.type, nowMs);
          return checkImu(msg, binding.type, target.why);
      }
    } catch (err) {
      const skip =
        err instanceof MappingSkip || err instanceof FieldProblem
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
      throw new MappingSkip('malformed', (err as Error).message);
    }
  }

  #nextSeq(source: string): number {
    const seq = (this.#seq.get(source) ?? 0) + 1;
    this.#seq.set(source, seq);
    return seq;
  }

  /**
   * header.stamp → Unix ms after the checks of header-stamp.ts. With stamp checks off, stamps from another clock
   * (use_sim_time) say nothing about age on this one: the handler's clock stands in, since the gates age a frame
   * from min(arrival, stamp).
   */
  #stampMs(msg: RosRecord, type: string, nowMs: number, maxAge?: { ms: number; setBy: string }): number {
    if (!this.#checkStamps) return nowMs;
    return checkedStampMs(msg, type, {
      nowMs,
      maxFutureSkewMs: this.#maxFutureSkewMs,
      ...(maxAge ? { maxAge } : {}),
      // A LaserScan is stamped at its first ray and complete at its last (scan-duration.ts).
      ...(type === ROS_TYPES.laserScan ? { acquisitionMs: scanDurationMs(msg, type) } : {}),
    });
  }

  #telemetry(binding: RosBinding, target: TelemetryTarget, msg: RosRecord, nowMs: number): TelemetryFrame {
    const source = target.source;
    const stampMs =
      binding.type === ROS_TYPES.string
        ? nowMs
        : this.#stampMs(msg, binding.type, nowMs, { ms: target.maxAgeMs, setBy: 'source allows' });
    if (target.frameId !== undefined) checkFrame(headerFrameId(msg, binding.type), target.frameId);
    else if (target.telemetryKind === 'pose') checkNotOdomFrame(headerFrameId(msg, binding.type));
    const last = this.#lastStampMs.get(source);
    if (last !== undefined && stampMs < last) {
      throw new MappingSkip(
        'stamp-backwards',
        `stamp ${stampMs} is earlier than the previous ${last} of ${source}`,
      );
    }
    const body = this.#telemetryBody(binding, target, msg);
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

  #telemetryBody(binding: RosBinding, target: TelemetryTarget, msg: RosRecord): Record<string, unknown> {
    const t = binding.type;
    switch (t) {
      case ROS_TYPES.jointState:
        return jointStateBody(msg, t, target.profileJoints);
      case ROS_TYPES.battery:
        return batteryBody(msg, t);
      case ROS_TYPES.poseStamped:
        return poseStampedBody(msg, t);
      case ROS_TYPES.odometry:
        return odometryBody(msg, t);
      case ROS_TYPES.poseWithCovarianceStamped:
        return poseWithCovarianceStampedBody(msg, t);
      case ROS_TYPES.laserScan:
      case ROS_TYPES.range:
      case ROS_TYPES.pointCloud2:
        return proximityBody(msg, t, target);
      case ROS_TYPES.string: {
        const report = asRecord(this.#json(msg, binding), `${binding.topic} firmware report`);
        return { kind: 'firmware', imageSha256: report.imageSha256, version: report.version };
      }
      default:
        throw new MappingSkip('wrong-type', `no telemetry mapping for ${t}`);
    }
  }

  #intent(binding: RosBinding, target: IntentTarget, msg: RosRecord, nowMs: number): Intent {
    const t = binding.type;
    const held = { ms: target.twistDurationMs, setBy: 'the command is held for' };
    let body: Record<string, unknown>;
    if (t === ROS_TYPES.jointTrajectory) body = jointTrajectoryBody(msg, t);
    else {
      let velocity: ReturnType<typeof twistVelocity>;
      if (t === ROS_TYPES.twist) velocity = twistVelocity(msg, t);
      else {
        this.#stampMs(msg, t, nowMs, held);
        velocity =
          t === ROS_TYPES.twistStamped
            ? twistStampedVelocity(msg, t)
            : ackermannVelocity(msg, t, target.wheelbaseM ?? Number.NaN);
      }
      body = { kind: 'base-twist', ...velocity, durationMs: target.twistDurationMs };
    }
    this.#intents += 1;
    return {
      v: 1,
      intentId: `ros.${binding.role}.${nowMs}.${this.#intents}`,
      robotId: this.#robotId,
      ...(target.moveClass !== undefined ? { moveClass: target.moveClass } : {}),
      ...(target.safetyCritical !== undefined ? { safetyCritical: target.safetyCritical } : {}),
      ...body,
    } as Intent;
  }
}

/** `header.frame_id` (headerFrameId) must be the frame the role names. */
function checkFrame(got: string, frameId: string): void {
  if (got !== frameId) {
    throw new MappingSkip(
      'wrong-frame',
      `header.frame_id is ${JSON.stringify(got)}, the role expects ${JSON.stringify(frameId)} (its frameId override)`,
    );
  }
}

/** A pose without a `frameId` override must not be in an odometry frame (odometry-frames.ts). */
function checkNotOdomFrame(got: string): void {
  const what = odometryFrameKind(got);
  if (what !== undefined) {
    throw new MappingSkip(
      'wrong-frame',
      `header.frame_id is ${JSON.stringify(got)}: a pose in ${what} drifts from the map frame the zones are in; feed the map-frame pose (a localizer's output), or give the role frameId: ${got} if the zones are drawn in that frame`,
    );
  }
}
