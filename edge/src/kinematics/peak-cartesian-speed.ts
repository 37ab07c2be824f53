/**
 * The fastest any checked point of the robot moves along a plan, m/s: the robot speed v_r of ISO/TS 15066:2016
 * §5.5.4 eq. (1) for THIS motion, instead of one constant for every motion.
 *
 * Arm (classic DH, frameOrigins): joint j turns about the z axis of frame j−1, through that frame's origin
 * p_{j−1} (p_{-1} = the base origin). A point p_i of frame i (i ≥ j) then moves at
 *   v_i = |Σ_{j≤i} q̇_j · z_{j−1} × (p_i − p_{j−1})|  ≤  Σ_{j≤i} |q̇_j| · |p_i − p_{j−1}|,
 * and the bound on the right (triangle inequality, |z × r| ≤ |r|) is what is used: it never under-states a
 * speed. It is evaluated with the joint rates of each segment (Δq/Δt, the controller's joint-space-linear
 * interpolation) at the segment's start, middle and end configurations, and with the rates given at each
 * waypoint (planned velocities, or the measured ones at the start), over every frame origin — the flange
 * and the elbow alike.
 *
 * Mobile base: |v_xy| + |ω_z| · footprint radius (the rim of the footprint disc moves fastest).
 */
import type { DhTable } from './forward-kinematics.js';
import { frameOrigins } from './forward-kinematics.js';

/** Σ-bound speed of the fastest frame origin at configuration `qRad` under joint rates `ratesRadS`, m/s. */
function fastestFrameMps(
  table: DhTable,
  qRad: ArrayLike<number>,
  ratesRadS: ArrayLike<number>,
  origins: Float64Array,
): number {
  const n = table.length / 5;
  frameOrigins(table, qRad, origins);
  let fastest = 0;
  for (let i = 0; i < n; i++) {
    const px = origins[3 * i]!;
    const py = origins[3 * i + 1]!;
    const pz = origins[3 * i + 2]!;
    let v = 0;
    for (let j = 0; j <= i; j++) {
      // Joint j's axis passes through the origin of frame j−1 (the base origin for j = 0).
      const ax = j === 0 ? 0 : origins[3 * (j - 1)]!;
      const ay = j === 0 ? 0 : origins[3 * (j - 1) + 1]!;
      const az = j === 0 ? 0 : origins[3 * (j - 1) + 2]!;
      v += Math.abs(ratesRadS[j]!) * Math.hypot(px - ax, py - ay, pz - az);
    }
    if (v > fastest) fastest = v;
  }
  return fastest;
}

/**
 * Peak Cartesian speed of an arm along `waypointsRad` (start first) reached at `timesMs`, with the joint
 * rates `velocitiesRadS` at each waypoint, m/s.
 */
export function peakArmSpeedMps(
  table: DhTable,
  waypointsRad: readonly (readonly number[])[],
  timesMs: readonly number[],
  velocitiesRadS: readonly (readonly number[])[],
): number {
  const n = table.length / 5;
  const origins = new Float64Array(3 * n);
  const rates = new Float64Array(n);
  const mid = new Float64Array(n);
  let peak = 0;
  for (let k = 0; k < waypointsRad.length; k++) {
    const q = waypointsRad[k]!;
    const v = velocitiesRadS[k];
    if (v) peak = Math.max(peak, fastestFrameMps(table, q, v, origins));
    if (k === 0) continue;
    const prev = waypointsRad[k - 1]!;
    const dtS = (timesMs[k]! - timesMs[k - 1]!) / 1000;
    if (!(dtS > 0)) continue;
    for (let j = 0; j < n; j++) {
      rates[j] = (q[j]! - prev[j]!) / dtS;
      mid[j] = (q[j]! + prev[j]!) / 2;
    }
    peak = Math.max(
      peak,
      fastestFrameMps(table, prev, rates, origins),
      fastestFrameMps(table, mid, rates, origins),
      fastestFrameMps(table, q, rates, origins),
    );
  }
  return peak;
}

/** Peak speed of any point of a base footprint holding a twist, m/s. */
export function peakBaseSpeedMps(
  linearMps: { x: number; y: number },
  angularRadS: { z: number },
  footprintRadiusM: number,
): number {
  return Math.hypot(linearMps.x, linearMps.y) + Math.abs(angularRadS.z) * footprintRadiusM;
}
