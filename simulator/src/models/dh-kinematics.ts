/**
 * Forward kinematics from classic Denavit–Hartenberg parameters (the convention Universal Robots publish):
 * T_i = Rz(θ_i + θoffset_i) · Tz(d_i) · Tx(a_i) · Rx(α_i). The simulator's own implementation, driven by the
 * same profile the edge reads; it never imports the edge's kinematics (ARCHITECTURE.md §1), so a bug in one does
 * not hide in the other.
 */
import type { DhParameters } from '@pentagate/protocol';

export type Vec3 = [number, number, number];

/** A rigid transform: rotation rows `r` and translation `p` (metres). */
export interface Frame {
  r: [Vec3, Vec3, Vec3];
  p: Vec3;
}

export const BASE_FRAME: Frame = {
  r: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  p: [0, 0, 0],
};

function compose(a: Frame, b: Frame): Frame {
  const r = [0, 1, 2].map((i) =>
    [0, 1, 2].map((j) => a.r[i]![0] * b.r[0]![j]! + a.r[i]![1] * b.r[1]![j]! + a.r[i]![2] * b.r[2]![j]!),
  ) as Frame['r'];
  const p = [0, 1, 2].map(
    (i) => a.r[i]![0] * b.p[0] + a.r[i]![1] * b.p[1] + a.r[i]![2] * b.p[2] + a.p[i]!,
  ) as Vec3;
  return { r, p };
}

function dhTransform(dh: DhParameters, q: number): Frame {
  const th = q + dh.thetaOffsetRad;
  const ct = Math.cos(th);
  const st = Math.sin(th);
  const ca = Math.cos(dh.alphaRad);
  const sa = Math.sin(dh.alphaRad);
  return {
    r: [
      [ct, -st * ca, st * sa],
      [st, ct * ca, -ct * sa],
      [0, sa, ca],
    ],
    p: [dh.aM * ct, dh.aM * st, dh.dM],
  };
}

/** Frames 0..n: frame 0 is the base; frame i is the frame after joint i. */
export function jointFrames(dh: readonly DhParameters[], positionsRad: readonly number[]): Frame[] {
  const frames = [BASE_FRAME];
  dh.forEach((d, i) => {
    frames.push(compose(frames[i]!, dhTransform(d, positionsRad[i] ?? 0)));
  });
  return frames;
}

/** The z axis of a frame (the axis joint i+1 turns about, for frame i). */
export function zAxis(f: Frame): Vec3 {
  return [f.r[0][2], f.r[1][2], f.r[2][2]];
}

export function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

export function sub(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

export function norm(a: Vec3): number {
  return Math.hypot(a[0], a[1], a[2]);
}
