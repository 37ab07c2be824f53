/**
 * A 6-joint (or n-joint) arm: joint positions tracked toward the controller's setpoints under the profile's
 * velocity and position limits, and the joint torque the drives must deliver:
 *
 *   τ_i = τ_gravity,i + τ_inertial,i
 *   τ_gravity,i  = Σ_{k ≥ i} m_k · g · (z_{i−1} × (c_k − o_{i−1}))_z          (holding torque, g = 9.80665 m/s²)
 *   τ_inertial,i = I_i · q̈_i,   I_i = Σ_{k ≥ i} m_k · |(c_k − o_{i−1}) ⊥ z_{i−1}|²   (point masses, diagonal only)
 *
 * Link k's mass sits at the midpoint between frame k−1 and frame k (a point-mass model; Coriolis and
 * off-diagonal inertia are left out and said so in the README). Masses default to the UR5e's published
 * link masses.
 */
import type { JointProfile } from '@pentagate/protocol';
import { type Vec3, cross, jointFrames, norm, sub, zAxis } from './dh-kinematics.js';

export const STANDARD_GRAVITY_MPS2 = 9.80665;
/** UR5e link masses from Universal Robots' published dynamics parameters, kg. */
export const UR5E_LINK_MASSES_KG = [3.761, 8.058, 2.846, 1.37, 1.3, 0.365];

export interface ArmState {
  positionsRad: number[];
  velocitiesRadS: number[];
  accelerationsRadS2: number[];
  effortsNm: number[];
}

export class ArmModel {
  readonly joints: readonly JointProfile[];
  readonly linkMassesKg: readonly number[];
  /** Payload at the flange, kg (adds to the last link). */
  payloadKg: number;
  #q: number[];
  #qd: number[];
  #qdd: number[];
  /** Count of steps in which a setpoint beyond a position limit was clamped, per joint. */
  readonly limitClamps: number[];

  constructor(
    joints: readonly JointProfile[],
    initialRad: readonly number[],
    linkMassesKg?: readonly number[],
  ) {
    this.joints = joints;
    this.linkMassesKg = linkMassesKg ?? joints.map((_, i) => UR5E_LINK_MASSES_KG[i] ?? 1);
    this.payloadKg = 0;
    this.#q = joints.map((_, i) => initialRad[i] ?? 0);
    this.#qd = joints.map(() => 0);
    this.#qdd = joints.map(() => 0);
    this.limitClamps = joints.map(() => 0);
  }

  get state(): ArmState {
    return {
      positionsRad: [...this.#q],
      velocitiesRadS: [...this.#qd],
      accelerationsRadS2: [...this.#qdd],
      effortsNm: this.effortsNm(),
    };
  }

  /** True when any joint turns faster than `thresholdRadS`. */
  isMoving(thresholdRadS = 1e-3): boolean {
    return this.#qd.some((v) => Math.abs(v) > thresholdRadS);
  }

  /**
   * Advances `dtMs` toward `targetRad` (the controller's setpoint for the end of this step); with no target the
   * joints hold where they are (brakes). Speed is capped by each joint's velocity limit, position by its limits.
   */
  step(dtMs: number, targetRad?: readonly number[]): void {
    const dtS = dtMs / 1000;
    this.joints.forEach((j, i) => {
      let target = targetRad?.[i] ?? this.#q[i]!;
      if (target < j.positionLimitsRad.min || target > j.positionLimitsRad.max) {
        this.limitClamps[i]!++;
        target = Math.min(j.positionLimitsRad.max, Math.max(j.positionLimitsRad.min, target));
      }
      const maxStep = j.velocityLimitRadS * dtS;
      const delta = Math.max(-maxStep, Math.min(maxStep, target - this.#q[i]!));
      const v = dtS > 0 ? delta / dtS : 0;
      this.#qdd[i] = dtS > 0 ? (v - this.#qd[i]!) / dtS : 0;
      this.#qd[i] = v;
      this.#q[i] = this.#q[i]! + delta;
    });
  }

  /** Holding torque against gravity at `positionsRad`, N·m per joint. */
  gravityTorquesNm(positionsRad: readonly number[] = this.#q): number[] {
    const frames = jointFrames(
      this.joints.map((j) => j.dh),
      positionsRad,
    );
    const n = this.joints.length;
    const centres: Vec3[] = [];
    for (let k = 1; k <= n; k++) {
      const a = frames[k - 1]!.p;
      const b = frames[k]!.p;
      centres.push([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2]);
    }
    return this.joints.map((_, i) => {
      const axis = zAxis(frames[i]!);
      const origin = frames[i]!.p;
      let tau = 0;
      for (let k = i; k < n; k++) {
        const m = this.#massOf(k);
        // Torque about the axis of the weight m·g (pointing −z) at the link's centre; the drive holds it.
        const lever = sub(centres[k]!, origin);
        const moment = cross(lever, [0, 0, -m * STANDARD_GRAVITY_MPS2]);
        tau -= moment[0] * axis[0] + moment[1] * axis[1] + moment[2] * axis[2];
      }
      return tau;
    });
  }

  /** Effective inertia about each joint axis (point masses outboard of it), kg·m². */
  inertiasKgM2(positionsRad: readonly number[] = this.#q): number[] {
    const frames = jointFrames(
      this.joints.map((j) => j.dh),
      positionsRad,
    );
    const n = this.joints.length;
    return this.joints.map((_, i) => {
      const axis = zAxis(frames[i]!);
      let inertia = 0;
      for (let k = i; k < n; k++) {
        const a = frames[k]!.p;
        const b = frames[k + 1]!.p;
        const c: Vec3 = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
        const radial = cross(axis, sub(c, frames[i]!.p));
        inertia += this.#massOf(k) * norm(radial) ** 2;
      }
      return inertia;
    });
  }

  /** Torque each drive delivers right now: gravity plus inertial, N·m. */
  effortsNm(): number[] {
    const gravity = this.gravityTorquesNm();
    const inertia = this.inertiasKgM2();
    return gravity.map((g, i) => g + inertia[i]! * this.#qdd[i]!);
  }

  /** Mechanical power the drives deliver right now, W (Σ |τ·ω|). */
  mechanicalPowerW(): number {
    const tau = this.effortsNm();
    return tau.reduce((sum, t, i) => sum + Math.abs(t * this.#qd[i]!), 0);
  }

  #massOf(link: number): number {
    const m = this.linkMassesKg[link] ?? 0;
    return link === this.joints.length - 1 ? m + this.payloadKg : m;
  }
}
