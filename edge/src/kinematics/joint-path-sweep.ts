/**
 * Sweeps a joint-space path (waypoints joined by straight lines in joint space, as a joint trajectory
 * controller interpolates them) through the keep-out zones.
 *
 * Sampling: each segment is cut into N = ⌈Σⱼ |Δqⱼ| · leverArmⱼ / spacing⌉ steps, so no checked point moves more
 * than `spacingM` between samples (see `leverArmsM`); zones are inflated by spacing/2, which makes the check
 * cover the continuous path, not only the samples (see keep-out-zone.ts).
 *
 * Already inside: a zone that holds the start may be occupied until the path first leaves it; after that,
 * re-entering it is a hit, and a path that ends still inside it is a hit ('not-left').
 * Stopping points: for each waypoint, q + v · T_stop / 2 (constant deceleration from v to rest in T_stop)
 * must be outside every zone the path has left or never held.
 */
import type { DhParameters, KeepOutZone } from '@pentagate/protocol';
import { pointInZone } from '../geometry/keep-out-zone.js';
import { frameOrigins } from './forward-kinematics.js';

export interface ZoneHit {
  zoneIndex: number;
  kind: 'path' | 'stop' | 'not-left';
  /** Index of the waypoint the hit is at or just before (0 = the start). */
  waypoint: number;
  /** The checked frame (0-based, frame 1 = index 0) and its position, m. */
  frame: number;
  pointM: [number, number, number];
}

export interface JointSweepInput {
  dh: readonly DhParameters[];
  leverArmsM: readonly number[];
  zones: readonly KeepOutZone[];
  spacingM: number;
  /** Waypoints in profile joint order; waypoints[0] is the measured start. */
  waypointsRad: readonly (readonly number[])[];
  /** Velocity at each waypoint, rad/s (same indexing), for the stopping points. */
  velocitiesRadS: readonly (readonly number[])[];
  stoppingTimeS: number;
}

export interface JointSweepResult {
  hit?: ZoneHit;
  samples: number;
  /** Zones (indexes) that held the start. */
  startZones: number[];
}

/** Zone indexes containing any checked point of `origins`. */
function zonesHolding(
  zones: readonly KeepOutZone[],
  origins: Float64Array,
  frames: number,
  inflateM: number,
): Set<number> {
  const held = new Set<number>();
  for (let z = 0; z < zones.length; z++) {
    for (let f = 0; f < frames; f++) {
      if (pointInZone(zones[z]!, origins[3 * f]!, origins[3 * f + 1]!, origins[3 * f + 2]!, inflateM)) {
        held.add(z);
        break;
      }
    }
  }
  return held;
}

export function sweepJointPath(input: JointSweepInput): JointSweepResult {
  const { dh, zones, spacingM, waypointsRad } = input;
  const n = dh.length;
  const inflateM = spacingM / 2;
  const origins = new Float64Array(3 * n);
  const q = new Float64Array(n);
  const start = waypointsRad[0]!;
  frameOrigins(dh, start, origins);
  const startZones = zonesHolding(zones, origins, n, inflateM);
  const occupied = new Set(startZones); // start zones not yet left
  let samples = 1;

  const check = (waypoint: number, kind: 'path' | 'stop'): ZoneHit | undefined => {
    for (let z = 0; z < zones.length; z++) {
      let inside = -1;
      for (let f = 0; f < n; f++) {
        if (pointInZone(zones[z]!, origins[3 * f]!, origins[3 * f + 1]!, origins[3 * f + 2]!, inflateM)) {
          inside = f;
          break;
        }
      }
      if (kind === 'path' && occupied.has(z)) {
        if (inside < 0) occupied.delete(z); // left it: from now on it is an ordinary zone
        continue;
      }
      if (kind === 'stop' && occupied.has(z)) continue;
      if (inside >= 0) {
        return {
          zoneIndex: z,
          kind,
          waypoint,
          frame: inside,
          pointM: [origins[3 * inside]!, origins[3 * inside + 1]!, origins[3 * inside + 2]!],
        };
      }
    }
    return undefined;
  };

  for (let w = 1; w < waypointsRad.length; w++) {
    const a = waypointsRad[w - 1]!;
    const b = waypointsRad[w]!;
    let travelM = 0;
    for (let j = 0; j < n; j++) travelM += Math.abs(b[j]! - a[j]!) * input.leverArmsM[j]!;
    const steps = Math.max(1, Math.ceil(travelM / spacingM));
    for (let s = 1; s <= steps; s++) {
      const u = s / steps;
      for (let j = 0; j < n; j++) q[j] = a[j]! + (b[j]! - a[j]!) * u;
      frameOrigins(dh, q, origins);
      samples++;
      const hit = check(w - 1, 'path');
      if (hit) return { hit, samples, startZones: [...startZones] };
    }
    const v = input.velocitiesRadS[w];
    if (v && input.stoppingTimeS > 0) {
      for (let j = 0; j < n; j++) q[j] = b[j]! + (v[j] ?? 0) * (input.stoppingTimeS / 2);
      frameOrigins(dh, q, origins);
      samples++;
      const hit = check(w, 'stop');
      if (hit) return { hit, samples, startZones: [...startZones] };
    }
  }
  const stillIn = [...occupied][0];
  if (stillIn !== undefined) {
    frameOrigins(dh, waypointsRad[waypointsRad.length - 1]!, origins);
    return {
      hit: {
        zoneIndex: stillIn,
        kind: 'not-left',
        waypoint: waypointsRad.length - 1,
        frame: 0,
        pointM: [origins[0]!, origins[1]!, origins[2]!],
      },
      samples,
      startZones: [...startZones],
    };
  }
  return { samples, startZones: [...startZones] };
}
