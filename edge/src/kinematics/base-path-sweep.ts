/**
 * Sweeps a mobile base holding a constant body-frame twist (vx, vy, vz; ωz) for a duration through the
 * keep-out zones, from its measured pose. Closed-form integration of the planar motion:
 * ψ(t) = ψ₀ + ω t; x(t) = x₀ + vx·C(t) − vy·S(t); y(t) = y₀ + vx·S(t) + vy·C(t), where
 * C(t) = ∫₀ᵗ cos ψ dτ and S(t) = ∫₀ᵗ sin ψ dτ. The path is sampled every `spacingM` of travel and zones are
 * inflated by spacing/2 plus the footprint radius, and met in the plane (footprintInZone: the base occupies the
 * column over its footprint, whatever height its pose reports). The stopping point is the end pose continued at
 * the same twist for T_stop / 2 (constant deceleration). "Already inside" follows joint-path-sweep.ts.
 */
import type { KeepOutZone } from '@pentagate/protocol';
import { footprintInZone } from '../geometry/keep-out-zone.js';

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
  /** While a motion runs: the zones it started in and has not yet left (joint-path-sweep.ts `heldZones`). */
  heldZones?: ReadonlySet<number>;
}

export interface BaseSweepResult {
  hit?: {
    zoneIndex: number;
    kind: 'path' | 'stop' | 'not-left';
    pointM: [number, number, number];
    tS: number;
  };
  samples: number;
  startZones: number[];
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
  // Held only when the footprint itself meets the zone: a base parked within the sampling margin of a zone
  // (s/2) is outside it, and excusing that zone let a drive through it be signed (outside review: 2 cm from a
  // fire door, a 1.5 m drive through it). Such a zone is an ordinary one: the margin vetoes moves that stay in it.
  // While a motion runs, a zone it started in and has not yet left is still held within the margin
  // (`heldZones`, as in joint-path-sweep.ts), so a base on its way out is not stopped at the zone's edge.
  const startZones: number[] = [];
  zones.forEach((zone, z) => {
    const reachM = input.heldZones?.has(z) ? inflateM : input.footprintRadiusM;
    if (footprintInZone(zone, input.startM.x, input.startM.y, reachM)) startZones.push(z);
  });
  const occupied = new Set(startZones);
  for (let k = 1; k <= steps; k++) {
    const tS = (input.durationS * k) / steps;
    const p = basePositionAt(input, tS);
    const held = new Set(holds(p));
    for (const z of [...occupied]) if (!held.has(z)) occupied.delete(z);
    for (const z of held) {
      if (!occupied.has(z))
        return { hit: { zoneIndex: z, kind: 'path', pointM: p, tS }, samples: k + 1, startZones };
    }
  }
  const stopT = input.durationS + input.stoppingTimeS / 2;
  const stop = basePositionAt(input, stopT);
  for (const z of holds(stop)) {
    if (!occupied.has(z))
      return { hit: { zoneIndex: z, kind: 'stop', pointM: stop, tS: stopT }, samples: steps + 2, startZones };
  }
  const stillIn = [...occupied][0];
  if (stillIn !== undefined) {
    return {
      hit: {
        zoneIndex: stillIn,
        kind: 'not-left',
        pointM: basePositionAt(input, input.durationS),
        tS: input.durationS,
      },
      samples: steps + 2,
      startZones,
    };
  }
  return { samples: steps + 2, startZones };
}
