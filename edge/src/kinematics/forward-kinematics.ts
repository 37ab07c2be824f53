/**
 * Forward kinematics from classic Denavit–Hartenberg parameters:
 * ⁱ⁻¹Tᵢ = Rot_z(θᵢ) · Trans_z(dᵢ) · Trans_x(aᵢ) · Rot_x(αᵢ), θᵢ = qᵢ + thetaOffsetᵢ
 * (the convention Universal Robots publish their DH tables in). Returns the origin of every frame 1..n in the
 * base frame; these are the points the keep-out check follows (joint centres and the flange).
 */
import type { DhParameters } from '@pentagate/protocol';

/**
 * A DH table with the constant per-joint terms precomputed (five numbers per joint: aM, dM, cos α, sin α,
 * θ offset), so the path sampler pays for two trigonometric calls per joint per sample instead of four.
 */
export type DhTable = Float64Array;

export function dhTable(dh: readonly DhParameters[]): DhTable {
  const t = new Float64Array(5 * dh.length);
  dh.forEach((p, i) => {
    t[5 * i] = p.aM;
    t[5 * i + 1] = p.dM;
    t[5 * i + 2] = Math.cos(p.alphaRad);
    t[5 * i + 3] = Math.sin(p.alphaRad);
    t[5 * i + 4] = p.thetaOffsetRad;
  });
  return t;
}

/**
 * Writes the origins of frames 1..n (x, y, z per frame, metres) for joint positions `qRad` into `out`
 * (length ≥ 3n) and returns it. Allocation-free so the path sampler can call it thousands of times.
 * `zAxesOut` (length ≥ 3n), when given, receives the z axis of frame i−1 for each joint i: the direction of
 * that joint's `dᵢ` leg, which the arm's skeleton (arm-skeleton.ts) follows from frame to frame.
 */
export function frameOrigins(
  dh: readonly DhParameters[] | DhTable,
  qRad: ArrayLike<number>,
  out: Float64Array,
  zAxesOut?: Float64Array,
): Float64Array {
  const t = dh instanceof Float64Array ? dh : dhTable(dh);
  const n = t.length / 5;
  // Running transform as a 3x4 matrix [r00 r01 r02 px; r10 r11 r12 py; r20 r21 r22 pz].
  let r00 = 1;
  let r01 = 0;
  let r02 = 0;
  let r10 = 0;
  let r11 = 1;
  let r12 = 0;
  let r20 = 0;
  let r21 = 0;
  let r22 = 1;
  let px = 0;
  let py = 0;
  let pz = 0;
  for (let i = 0; i < n; i++) {
    const aM = t[5 * i]!;
    const ca = t[5 * i + 2]!;
    const sa = t[5 * i + 3]!;
    const theta = qRad[i]! + t[5 * i + 4]!;
    const ct = Math.cos(theta);
    const st = Math.sin(theta);
    // Local transform A = [ct, -st*ca, st*sa, a*ct; st, ct*ca, -ct*sa, a*st; 0, sa, ca, d]
    const a00 = ct;
    const a01 = -st * ca;
    const a02 = st * sa;
    const a03 = aM * ct;
    const a10 = st;
    const a11 = ct * ca;
    const a12 = -ct * sa;
    const a13 = aM * st;
    const a21 = sa;
    const a22 = ca;
    const a23 = t[5 * i + 1]!;
    if (zAxesOut) {
      zAxesOut[3 * i] = r02;
      zAxesOut[3 * i + 1] = r12;
      zAxesOut[3 * i + 2] = r22;
    }
    const n00 = r00 * a00 + r01 * a10;
    const n01 = r00 * a01 + r01 * a11 + r02 * a21;
    const n02 = r00 * a02 + r01 * a12 + r02 * a22;
    const n10 = r10 * a00 + r11 * a10;
    const n11 = r10 * a01 + r11 * a11 + r12 * a21;
    const n12 = r10 * a02 + r11 * a12 + r12 * a22;
    const n20 = r20 * a00 + r21 * a10;
    const n21 = r20 * a01 + r21 * a11 + r22 * a21;
    const n22 = r20 * a02 + r21 * a12 + r22 * a22;
    px += r00 * a03 + r01 * a13 + r02 * a23;
    py += r10 * a03 + r11 * a13 + r12 * a23;
    pz += r20 * a03 + r21 * a13 + r22 * a23;
    r00 = n00;
    r01 = n01;
    r02 = n02;
    r10 = n10;
    r11 = n11;
    r12 = n12;
    r20 = n20;
    r21 = n21;
    r22 = n22;
    out[3 * i] = px;
    out[3 * i + 1] = py;
    out[3 * i + 2] = pz;
  }
  return out;
}

/**
 * Lever arm of each joint, m: an upper bound on the distance from joint j's axis to any frame origin after
 * it, Σ_{i≥j} (|aᵢ| + |dᵢ|). Turning joint j by Δq moves no checked point more than Δq · leverArm[j], so
 * Σⱼ |Δqⱼ| · leverArm[j] bounds how far any checked point travels along a joint-space-linear segment.
 * The bound holds for every point of the skeleton too (arm-skeleton.ts): such a point is reached from frame
 * j−1's origin, which lies on joint j's axis, along at most Σ_{i≥j} (|aᵢ| + |dᵢ|) of legs.
 */
export function leverArmsM(dh: readonly DhParameters[]): number[] {
  const out = new Array<number>(dh.length).fill(0);
  let sum = 0;
  for (let i = dh.length - 1; i >= 0; i--) {
    sum += Math.abs(dh[i]!.aM) + Math.abs(dh[i]!.dM);
    out[i] = sum;
  }
  return out;
}
