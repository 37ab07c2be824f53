/**
 * A differential-drive base: a body twist (v forward, ω about z) becomes left/right wheel speeds, each capped
 * at the wheel's top speed, and the pose integrates the wheel speeds back (the unicycle model, exact for
 * constant v and ω over a step). Pose is in the map frame, yaw about z.
 */
import type { BaseProfile } from '@pentagate/protocol';

export interface BasePose {
  xM: number;
  yM: number;
  yawRad: number;
}

export class DiffDriveBase {
  readonly profile: BaseProfile;
  /** Distance between the wheels, m. */
  readonly trackWidthM: number;
  #pose: BasePose;
  #vMps = 0;
  #wRadS = 0;

  constructor(profile: BaseProfile, pose: BasePose = { xM: 0, yM: 0, yawRad: 0 }, trackWidthM = 0.5) {
    this.profile = profile;
    this.trackWidthM = trackWidthM;
    this.#pose = { ...pose };
  }

  get pose(): BasePose {
    return { ...this.#pose };
  }

  get linearMps(): number {
    return this.#vMps;
  }

  get angularRadS(): number {
    return this.#wRadS;
  }

  isMoving(): boolean {
    return Math.abs(this.#vMps) > 1e-4 || Math.abs(this.#wRadS) > 1e-4;
  }

  /** Advances `dtMs` at the commanded twist (zero when none), within the profile's speed limits. */
  step(dtMs: number, twist?: { linearMps: number; angularRadS: number }): void {
    const wheelMaxMps = this.profile.maxLinearMps;
    let left = (twist?.linearMps ?? 0) - ((twist?.angularRadS ?? 0) * this.trackWidthM) / 2;
    let right = (twist?.linearMps ?? 0) + ((twist?.angularRadS ?? 0) * this.trackWidthM) / 2;
    // Scale both wheels together so a saturated turn keeps its curvature.
    const peak = Math.max(Math.abs(left), Math.abs(right));
    if (peak > wheelMaxMps) {
      left *= wheelMaxMps / peak;
      right *= wheelMaxMps / peak;
    }
    const v = (left + right) / 2;
    const w = Math.max(
      -this.profile.maxAngularRadS,
      Math.min(this.profile.maxAngularRadS, (right - left) / this.trackWidthM),
    );
    const dtS = dtMs / 1000;
    const { xM, yM, yawRad } = this.#pose;
    if (Math.abs(w) < 1e-9) {
      this.#pose = { xM: xM + v * dtS * Math.cos(yawRad), yM: yM + v * dtS * Math.sin(yawRad), yawRad };
    } else {
      const yaw2 = yawRad + w * dtS;
      this.#pose = {
        xM: xM + (v / w) * (Math.sin(yaw2) - Math.sin(yawRad)),
        yM: yM - (v / w) * (Math.cos(yaw2) - Math.cos(yawRad)),
        yawRad: yaw2,
      };
    }
    this.#vMps = v;
    this.#wRadS = w;
  }

  /** Mechanical power at the wheels, W: rolling resistance plus turning (the edge ECONOMY gate's model). */
  mechanicalPowerW(): number {
    const rollingN = this.profile.massKg * 9.80665 * this.profile.rollingResistance;
    return rollingN * Math.abs(this.#vMps) + this.profile.turnPowerWPerRadS * Math.abs(this.#wRadS);
  }
}
