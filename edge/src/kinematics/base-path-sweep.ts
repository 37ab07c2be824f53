/**
 * Sweeps a mobile base holding a constant body-frame twist (vx, vy, vz; ωz) for a duration through the
 * keep-out zones, from its measured pose. Closed-form integration of the planar motion:
 * ψ(t) = ψ₀ + ω t; x(t) = x₀ + vx·C(t) − vy·S(t); y(t) = y₀ + vx·S(t) + vy·C(t), where
 * C(t) = ∫₀ᵗ cos ψ dτ and S(t) = ∫₀ᵗ sin ψ dτ. The path is sampled every `spacingM` of travel and zones are
 * inflated by spacing/2 plus the footprint radius, and met in the plane (footprintInZone: the base occupies the
 * column over its footprint, whatever height its pose reports). The stopping point is the end pose continued at
 * the same twist for T_stop / 2 (constant deceleration). "Already inside" follows joint-path-sweep.ts: a zone
 * whose margin holds the start is occupied until the base leaves the margin, and meanwhile the base's centre
 * may not go deeper into it (zone-depth-ratchet.ts, the arm's helper, on the centre's depth in the plane).
 */
import type { KeepOutZone } from '@pentagate/protocol';
import { footprintInZone } from '../geometry/keep-out-zone.js';
import { planarDepthM } from '../geometry/zone-depth.js';
import { ZoneDepthRatchet } from './zone-depth-ratchet.js';

export interface BaseSweepInput {
  zones: readonly KeepOutZone[];
  spacingM: number;
  footprintRadiusM: number;
  startM: { x: number; y: number; z: number };
  yawRad: number;
  linearMps: { x: number; y: number; z: number };
  angularRadS: number;
  durationS: number;
  stoppingTimeS: number;
}

export interface BaseSweepResult {
  hit?: {
    zoneIndex: number;
    kind: 'path' | 'stop' | 'not-left' | 'deeper';
    pointM: [number, number, number];
    tS: number;
    /** As joint-path-sweep.ts's ZoneHit: how much deeper than allowed the base goes, m. */
    deeperByM?: number;
  };
  samples: number;
  /** Zones whose margin held the start, and those of them it has not left by the end (joint-path-sweep.ts). */
  startZones: number[];
  /** Per start zone (same order): the centre's signed depth in it in the plane at the start, m (one point). */
  startDepthsM: Float64Array[];
  endZones: number[];
}

/** Yaw (rotation about z) of a unit quaternion, rad. */
export function yawOf(q: { x: number; y: number; z: number; w: number }): number {
  return Math.atan2(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.y * q.y + q.z * q.z));
}

/** Position of the base after `tS` seconds, m. */
export function basePositionAt(input: BaseSweepInput, tS: number): [number, number, number] {
  const { startM, yawRad, linearMps, angularRadS } = input;
  let c: number;
  let s: number;
  if (Math.abs(angularRadS) < 1e-9) {
    c = tS * Math.cos(yawRad);
    s = tS * Math.sin(yawRad);
  } else {
    const yaw = yawRad + angularRadS * tS;
    c = (Math.sin(yaw) - Math.sin(yawRad)) / angularRadS;
    s = -(Math.cos(yaw) - Math.cos(yawRad)) / angularRadS;
  }
  return [
    startM.x + linearMps.x * c - linearMps.y * s,
    startM.y + linearMps.x * s + linearMps.y * c,
    startM.z + linearMps.z * tS,
  ];
}

/** Path steps of the sweep (one per `spacingM` of travel); it takes this many samples plus two at most. */
export function baseSweepSteps(input: Pick<BaseSweepInput, 'linearMps' | 'durationS' | 'spacingM'>): number {
  const speedMps = Math.hypot(input.linearMps.x, input.linearMps.y, input.linearMps.z);
  return Math.max(1, Math.ceil((speedMps * input.durationS) / input.spacingM));
}

export function sweepBasePath(input: BaseSweepInput): BaseSweepResult {
  const { zones } = input;
  const inflateM = input.spacingM / 2 + input.footprintRadiusM;
  const steps = baseSweepSteps(input);
  const holds = (p: [number, number, number]) => {
    const held: number[] = [];
    for (let z = 0; z < zones.length; z++) if (footprintInZone(zones[z]!, p[0], p[1], inflateM)) held.push(z);
    return held;
  };
  // A zone whose margin holds the start is occupied, the footprint inside it as drawn or not: excused as a
  // whole, it let a base 1 cm from a pillar be signed a drive through it (outside review), and one inside a
  // zone go deeper before leaving. So the centre may not go deeper (the ratchet, whose margin is the inflation:
  // the centre of a base outside the margin is as far out as an ordinary zone lets it come).
  const startZones = holds([input.startM.x, input.startM.y, input.startM.z]);
  const ratchet = new ZoneDepthRatchet(zones.length, 1, inflateM);
  const depthM = (z: number, p: readonly number[]) => planarDepthM(zones[z]!, p[0]!, p[1]!);
  const startDepthsM = startZones.map((z) => {
    const depth = depthM(z, [input.startM.x, input.startM.y]);
    ratchet.start(z, 0, depth);
    return Float64Array.of(depth);
  });
  const occupied = new Set(startZones);
  const result = (hit?: BaseSweepResult['hit'], samples = steps + 2): BaseSweepResult => {
    const endZones = startZones.filter((z) => occupied.has(z));
    const zones = { startZones, startDepthsM, endZones };
    return hit ? { hit, samples, ...zones } : { samples, ...zones };
  };
  for (let k = 1; k <= steps; k++) {
    const tS = (input.durationS * k) / steps;
    const p = basePositionAt(input, tS);
    for (const z of occupied) {
      const deeperByM = ratchet.deeperByM(z, 0, depthM(z, p));
      if (deeperByM > 0) return result({ zoneIndex: z, kind: 'deeper', pointM: p, tS, deeperByM }, k + 1);
    }
    const held = new Set(holds(p));
    for (const z of [...occupied]) if (!held.has(z)) occupied.delete(z);
    for (const z of held) {
      if (!occupied.has(z)) return result({ zoneIndex: z, kind: 'path', pointM: p, tS }, k + 1);
    }
  }
  const stopT = input.durationS + input.stoppingTimeS / 2;
  const stop = basePositionAt(input, stopT);
  for (const z of holds(stop)) {
    const deeperByM = occupied.has(z) ? ratchet.wouldBeDeeperByM(z, 0, depthM(z, stop)) : 0;
    if (!occupied.has(z) || deeperByM > 0) {
      return result({
        zoneIndex: z,
        kind: 'stop',
        pointM: stop,
        tS: stopT,
        ...(deeperByM > 0 ? { deeperByM } : {}),
      });
    }
  }
  // Ending in the margin of a start zone is allowed (its clearance never decreased); ending with the footprint
  // in the zone as drawn is not: a move from inside a zone must take the base out of it.
  const end = basePositionAt(input, input.durationS);
  for (const z of occupied) {
    if (footprintInZone(zones[z]!, end[0], end[1], input.footprintRadiusM)) {
      return result({ zoneIndex: z, kind: 'not-left', pointM: end, tS: input.durationS });
    }
  }
  return result();
}
