/**
 * What a recording's measured data says by itself, intent or not (most bags hold no intents): every accepted
 * telemetry frame is checked against the profile — joint efforts against torque limits, joint positions against
 * their limits, the arm's joint frames (forward kinematics) or the base's footprint against the keep-out zones,
 * the base's measured velocity (a pose frame's, from nav_msgs/Odometry) against its linear and angular limits,
 * the nearest person against the operating radius, the battery against its minimum voltage. Each breach is
 * reported once when it begins (time, subject, value, limit), with the number of frames spent in breach, so an
 * hour of a hot joint is one line and a count, not an hour of lines.
 */
import type { RobotProfile, TelemetryFrame } from '@pentagate/protocol';
import { footprintInZone, pointInZone } from '../geometry/keep-out-zone.js';
import { armSkeleton, skeletonPointName, skeletonPoints } from '../kinematics/arm-skeleton.js';
import { dhTable } from '../kinematics/forward-kinematics.js';

export type MeasuredCheck = 'effort' | 'position-limit' | 'keep-out' | 'base-speed' | 'proximity' | 'battery';

export interface MeasuredBreach {
  atMs: number;
  check: MeasuredCheck;
  /** The joint, zone or source concerned. */
  subject: string;
  value: number;
  limit: number;
  detail: string;
}

export interface MeasuredSummary {
  /** The first frame of each breach episode, in time order (at most MAX_LISTED). */
  breaches: MeasuredBreach[];
  /** Frames found in breach, per check. */
  framesInBreach: Partial<Record<MeasuredCheck, number>>;
  /** Checks that could not run on some frames for lack of data (an empty effort array), with how many and why. */
  notChecked: Partial<Record<MeasuredCheck, { frames: number; why: string }>>;
  /**
   * Profile sources of which no frame was accepted, so their checks never ran: "0 breaches" says nothing about
   * them. With the checks they would have fed and why (no topic feeds the source, or its messages were skipped).
   */
  sourcesWithoutFrames: { source: string; checks: MeasuredCheck[]; why: string }[];
}

/** The checks each kind of source feeds. */
function checksOf(kind: string, isArm: boolean): MeasuredCheck[] {
  switch (kind) {
    case 'joint-state':
      return isArm ? ['effort', 'position-limit', 'keep-out'] : ['effort', 'position-limit'];
    case 'pose':
      return ['keep-out', 'base-speed'];
    case 'proximity':
      return ['proximity'];
    case 'battery':
      return ['battery'];
    default:
      return [];
  }
}

const MAX_LISTED = 100;

export class MeasuredChecks {
  readonly #profile: RobotProfile;
  readonly #dh: Float64Array | undefined;
  readonly #active = new Set<string>();
  readonly summary: MeasuredSummary = {
    breaches: [],
    framesInBreach: {},
    notChecked: {},
    sourcesWithoutFrames: [],
  };
  readonly #framesBySource = new Map<string, number>();

  constructor(profile: RobotProfile) {
    this.#profile = profile;
    const dh = profile.joints.map((j) => j.dh);
    this.#dh = profile.joints.length > 0 && dh.every((d) => d !== undefined) ? dhTable(dh) : undefined;
  }

  /** Checks one accepted frame at `atMs`. */
  check(frame: TelemetryFrame, atMs: number): void {
    this.#framesBySource.set(frame.source, (this.#framesBySource.get(frame.source) ?? 0) + 1);
    const found: MeasuredBreach[] = [];
    const breach = (check: MeasuredCheck, subject: string, value: number, limit: number, detail: string) =>
      found.push({ atMs, check, subject, value, limit, detail });
    const p = this.#profile;
    if (frame.kind === 'joint-state') {
      // sensor_msgs/JointState may leave effort empty (not measured): positions are still judged.
      const hasEffort = frame.effortsNm.length > 0;
      if (!hasEffort) this.#notChecked('effort', `${frame.source} has an empty effort array`);
      const q = new Float64Array(p.joints.length);
      let complete = true;
      p.joints.forEach((joint, i) => {
        const k = frame.names.indexOf(joint.name);
        if (k < 0) {
          complete = false;
          return;
        }
        const effort = hasEffort ? Math.abs(frame.effortsNm[k]!) : 0;
        if (effort > joint.torqueLimitNm) {
          breach(
            'effort',
            joint.name,
            effort,
            joint.torqueLimitNm,
            `${joint.name} effort ${effort.toFixed(1)} N·m > limit ${joint.torqueLimitNm} N·m`,
          );
        }
        const position = frame.positionsRad[k]!;
        const { min, max } = joint.positionLimitsRad;
        if (position < min || position > max) {
          breach(
            'position-limit',
            joint.name,
            position,
            position < min ? min : max,
            `${joint.name} at ${position.toFixed(3)} rad, outside ${min} .. ${max} rad`,
          );
        }
        q[i] = position;
      });
      if (!complete && this.#dh && p.keepOut.zones.length > 0) {
        const absent = p.joints.filter((j) => !frame.names.includes(j.name)).map((j) => j.name);
        this.#notChecked(
          'keep-out',
          `${frame.source} lacks ${absent.join(', ')}: the arm's pose needs every joint`,
        );
      }
      if (complete && this.#dh) {
        // The links between the frame origins too, as the INVARIANT gate sweeps them (arm-skeleton.ts).
        const skeleton = armSkeleton(this.#dh, p.keepOut.minZoneThicknessM);
        const points = skeletonPoints(this.#dh, skeleton, q, new Float64Array(3 * skeleton.points));
        for (const zone of p.keepOut.zones) {
          for (let k = 0; k < skeleton.points; k++) {
            const [x, y, z] = [points[3 * k]!, points[3 * k + 1]!, points[3 * k + 2]!];
            if (pointInZone(zone, x, y, z)) {
              const f = skeleton.frameOf[k]!;
              breach(
                'keep-out',
                zone.id,
                f + 1,
                0,
                `${skeletonPointName(f, skeleton.alongLink[k]!)} (after ${p.joints[f]!.name}) inside zone ${zone.id} at (${x.toFixed(2)}, ${y.toFixed(2)}, ${z.toFixed(2)}) m`,
              );
              break;
            }
          }
        }
      }
    } else if (frame.kind === 'pose') {
      const footprint = p.base?.footprintRadiusM ?? 0;
      const { x, y } = frame.positionM;
      for (const zone of p.keepOut.zones) {
        if (footprintInZone(zone, x, y, footprint)) {
          breach(
            'keep-out',
            zone.id,
            footprint,
            0,
            `base at (${x.toFixed(2)}, ${y.toFixed(2)}) m within ${footprint} m of zone ${zone.id}`,
          );
        }
      }
      const v = frame.velocity;
      // Only Odometry carries a measured velocity; a PoseStamped or a localizer's pose does not, and "0 breaches"
      // must not read as "within the speed limits" then.
      if (!v && p.base) {
        this.#notChecked(
          'base-speed',
          `${frame.source} has no measured velocity (only nav_msgs/Odometry carries one, in twist.twist)`,
        );
      }
      if (v && p.base) {
        // The same measures INVARIANT applies to a commanded twist: |linear| and |angular z|.
        const linear = Math.hypot(v.linearMps.x, v.linearMps.y, v.linearMps.z);
        if (linear > p.base.maxLinearMps) {
          breach(
            'base-speed',
            'linear',
            linear,
            p.base.maxLinearMps,
            `base moving at ${linear.toFixed(2)} m/s > limit ${p.base.maxLinearMps} m/s (${frame.source})`,
          );
        }
        const turn = Math.abs(v.angularRadS.z);
        if (turn > p.base.maxAngularRadS) {
          breach(
            'base-speed',
            'angular',
            turn,
            p.base.maxAngularRadS,
            `base turning at ${turn.toFixed(2)} rad/s > limit ${p.base.maxAngularRadS} rad/s (${frame.source})`,
          );
        }
      }
    } else if (frame.kind === 'proximity') {
      if (frame.nearestHumanM !== null && frame.nearestHumanM < p.risk.operatingRadiusM) {
        breach(
          'proximity',
          frame.source,
          frame.nearestHumanM,
          p.risk.operatingRadiusM,
          `nearest return ${frame.nearestHumanM.toFixed(2)} m < operating radius ${p.risk.operatingRadiusM} m (${frame.source})`,
        );
      }
    } else if (frame.kind === 'battery') {
      if (frame.voltageV < p.battery.minVoltageV) {
        breach(
          'battery',
          frame.source,
          frame.voltageV,
          p.battery.minVoltageV,
          `battery ${frame.voltageV.toFixed(2)} V < minimum ${p.battery.minVoltageV} V`,
        );
      }
    }
    this.#record(frame, found);
  }

  /**
   * After the last frame: the sources of the profile that gave no frame, with why (`fedBy`: the recorded topics
   * bound to each source).
   */
  finish(fedBy: ReadonlyMap<string, readonly string[]>): void {
    const isArm = this.#profile.kind === 'arm';
    for (const source of this.#profile.sources) {
      const checks = checksOf(source.kind, isArm);
      if (checks.length === 0 || (this.#framesBySource.get(source.name) ?? 0) > 0) continue;
      const topics = fedBy.get(source.name) ?? [];
      this.summary.sourcesWithoutFrames.push({
        source: source.name,
        checks,
        why:
          topics.length === 0
            ? 'no topic in the recording feeds it'
            : `no frame from ${topics.join(', ')} was taken (see skipped and telemetry rejected)`,
      });
    }
  }

  #notChecked(check: MeasuredCheck, why: string): void {
    this.summary.notChecked[check] ??= { frames: 0, why };
    this.summary.notChecked[check].frames += 1;
  }

  #record(frame: TelemetryFrame, found: readonly MeasuredBreach[]): void {
    const now = new Set<string>();
    for (const b of found) {
      const key = `${frame.source}\u0000${b.check}\u0000${b.subject}`;
      now.add(key);
      this.summary.framesInBreach[b.check] = (this.summary.framesInBreach[b.check] ?? 0) + 1;
      if (!this.#active.has(key) && this.summary.breaches.length < MAX_LISTED) this.summary.breaches.push(b);
    }
    // Episodes of this source that did not recur in this frame have ended.
    for (const key of [...this.#active]) {
      if (key.startsWith(`${frame.source}\u0000`) && !now.has(key)) this.#active.delete(key);
    }
    for (const key of now) this.#active.add(key);
  }
}
