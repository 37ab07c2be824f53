/**
 * How fast the flange of an arm can move when every joint runs at its velocity limit, m/s — the figure the
 * profile's SSM parameters are cross-checked against (ssm-cross-check.ts).
 *
 * At a configuration q the flange velocity is J(q)·q̇ (J: the 3×n positional Jacobian, here by central
 * differences of frameOrigins). Over the box |q̇_j| ≤ ω_j the norm |J q̇| is convex, so its maximum is at a
 * corner: q̇_j = ±ω_j. The figure is the largest such corner speed over configurations sampled uniformly
 * within the position limits (a fixed-seed sequence, so `edge check` is reproducible). Above
 * MAX_CORNER_JOINTS joints the 2^n corners are too many, and Σ_j |J_j|·ω_j (an upper bound of every corner) is
 * used instead. Sampling can miss the
 * exact worst pose, so it is an estimate from below of the true peak; what RISK signs never depends on it —
 * RISK uses each plan's own speed (peak-cartesian-speed.ts).
 */
import { type RobotProfile, seededRandom } from '@pentagate/protocol';
import { dhTable, frameOrigins } from './forward-kinematics.js';

const STEP_RAD = 1e-6;
/** 2^8 = 256 corners per sample at most. */
const MAX_CORNER_JOINTS = 8;

export function jointLimitFlangeSpeedMps(profile: RobotProfile, samples = 2048): number {
  const joints = profile.joints;
  const n = joints.length;
  if (n === 0) return 0;
  const table = dhTable(joints.map((j) => j.dh));
  const out = new Float64Array(3 * n);
  const q = new Float64Array(n);
  const jac = new Float64Array(3 * n);
  const random = seededRandom(0x15066);
  let peak = 0;
  for (let s = 0; s < samples; s++) {
    joints.forEach((j, i) => {
      q[i] = j.positionLimitsRad.min + random() * (j.positionLimitsRad.max - j.positionLimitsRad.min);
    });
    for (let i = 0; i < n; i++) {
      const q0 = q[i]!;
      q[i] = q0 + STEP_RAD;
      frameOrigins(table, q, out);
      const fx = out[3 * n - 3]!;
      const fy = out[3 * n - 2]!;
      const fz = out[3 * n - 1]!;
      q[i] = q0 - STEP_RAD;
      frameOrigins(table, q, out);
      jac[3 * i] = (fx - out[3 * n - 3]!) / (2 * STEP_RAD);
      jac[3 * i + 1] = (fy - out[3 * n - 2]!) / (2 * STEP_RAD);
      jac[3 * i + 2] = (fz - out[3 * n - 1]!) / (2 * STEP_RAD);
      q[i] = q0;
    }
    if (n > MAX_CORNER_JOINTS) {
      let bound = 0;
      for (let i = 0; i < n; i++) {
        bound += Math.hypot(jac[3 * i]!, jac[3 * i + 1]!, jac[3 * i + 2]!) * joints[i]!.velocityLimitRadS;
      }
      peak = Math.max(peak, bound);
      continue;
    }
    for (let corner = 0; corner < 1 << n; corner++) {
      let vx = 0;
      let vy = 0;
      let vz = 0;
      for (let i = 0; i < n; i++) {
        const w = (corner >> i) & 1 ? joints[i]!.velocityLimitRadS : -joints[i]!.velocityLimitRadS;
        vx += jac[3 * i]! * w;
        vy += jac[3 * i + 1]! * w;
        vz += jac[3 * i + 2]! * w;
      }
      const v = Math.hypot(vx, vy, vz);
      if (v > peak) peak = v;
    }
  }
  return peak;
}
