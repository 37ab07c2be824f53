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
import { float64Work } from './work-arrays.js';

/** Work arrays of peakArmSpeedMps, reused from call to call (work-arrays.ts); each is written before read. */
const ORIGINS = float64Work();
const LEVERS_A = float64Work();
const LEVERS_B = float64Work();
const LEVERS_MIDDLE = float64Work();
const RATES = float64Work();
const MID = float64Work();

/**
 * Lever lengths at one configuration: for each frame i and joint j ≤ i, |p_i − p_{j−1}| (joint j turns about
 * the z axis of frame j−1, through its origin; p_{−1} is the base origin), packed row by row (i(i+1)/2 + j).
 * Computed once per configuration and reused for every set of joint rates judged there.
 */
function leverLengths(
  table: DhTable,
  qRad: ArrayLike<number>,
  origins: Float64Array,
  out: Float64Array,
): Float64Array {
  const n = table.length / 5;
  frameOrigins(table, qRad, origins);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const px = origins[3 * i]!;
    const py = origins[3 * i + 1]!;
    const pz = origins[3 * i + 2]!;
    for (let j = 0; j <= i; j++) {
      const dx = j === 0 ? px : px - origins[3 * (j - 1)]!;
      const dy = j === 0 ? py : py - origins[3 * (j - 1) + 1]!;
      const dz = j === 0 ? pz : pz - origins[3 * (j - 1) + 2]!;
      out[at++] = Math.sqrt(dx * dx + dy * dy + dz * dz);
    }
  }
  return out;
}

/** max over frames i of Σ_{j≤i} |ω_j| · lever[i][j], m/s. */
function fastestFrameMps(levers: Float64Array, ratesRadS: ArrayLike<number>, n: number): number {
  let fastest = 0;
  let at = 0;
  for (let i = 0; i < n; i++) {
    let v = 0;
    for (let j = 0; j <= i; j++) v += Math.abs(ratesRadS[j]!) * levers[at++]!;
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
  const origins = ORIGINS.take(3 * n);
  const pairs = (n * (n + 1)) / 2;
  let previous = LEVERS_A.take(pairs);
  let current = LEVERS_B.take(pairs);
  const middle = LEVERS_MIDDLE.take(pairs);
  const rates = RATES.take(n);
  const mid = MID.take(n);
  let peak = 0;
  for (let k = 0; k < waypointsRad.length; k++) {
    const q = waypointsRad[k]!;
    leverLengths(table, q, origins, current);
    const v = velocitiesRadS[k];
    if (v) peak = Math.max(peak, fastestFrameMps(current, v, n));
    if (k > 0) {
      const prev = waypointsRad[k - 1]!;
      const dtS = (timesMs[k]! - timesMs[k - 1]!) / 1000;
      if (dtS > 0) {
        for (let j = 0; j < n; j++) {
          rates[j] = (q[j]! - prev[j]!) / dtS;
          mid[j] = (q[j]! + prev[j]!) / 2;
        }
        leverLengths(table, mid, origins, middle);
        peak = Math.max(
          peak,
          fastestFrameMps(previous, rates, n),
          fastestFrameMps(middle, rates, n),
          fastestFrameMps(current, rates, n),
        );
      }
    }
    [previous, current] = [current, previous];
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
