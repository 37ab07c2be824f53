/**
 * Sweeps a joint-space path (waypoints joined by straight lines in joint space, as a joint trajectory
 * controller interpolates them) through the keep-out zones.
 *
 * Checked points: the arm's skeleton (arm-skeleton.ts), the frame origins and points along every link between
 * them at most `spacingM` apart, so a link crossing a zone between its ends is caught.
 * Sampling: each segment is cut into N = ⌈Σⱼ |Δqⱼ| · leverArmⱼ / spacing⌉ steps, so no checked point moves more
 * than `spacingM` between samples (see `leverArmsM`). Zones are inflated by `sweepInflationM`, which makes the
 * check cover the continuous path of the whole skeleton, not only the samples (see keep-out-zone.ts).
 *
 * Already inside: a zone whose margin (the inflated zone the sweep tests) holds a checked point at the start
 * is occupied until the path leaves the margin, and while it is, no checked point may go deeper into it than
 * it has been (zone-depth-ratchet.ts: a hit 'deeper'); after that, re-entering it is a hit, and a path that
 * ends with a point still inside it as drawn is a hit ('not-left'). One in the margin only may end there, its
 * clearance not decreased.
 * Stopping points: for each waypoint, q + v · T_stop / 2 (constant deceleration from v to rest in T_stop)
 * must be outside every zone the path has left or never held, and no deeper in a zone still occupied.
 *
 * Speed without skipping anything: between two path samples no checked point moves more than the segment's
 * step bound stepM = Σⱼ |Δqⱼ| · leverArmⱼ / N (the same bound that sets N). So a checked point whose distance
 * to every (inflated) zone bounding box is c cannot be inside any zone for the next ⌊c / stepM⌋ samples;
 * its "clearance" is spent by stepM per sample and the zones are tested again only when it runs out
 * (conservative advancement). Every sample where a point could be inside a zone is still tested exactly, so
 * the hits — and the first hit reported — are the same as testing every zone at every sample. Zones that
 * held the start are tested at every sample (their exit and every point's depth must be seen), and a zone
 * that is left resets the clearances so it is counted from then on. A stopping point is tested against every
 * zone while some zone is occupied, or unless every checked point's clearance exceeds the bound on how far the
 * stop moves it (Σⱼ |vⱼ| · T_s/2 · leverArmⱼ).
 */
import type { DhParameters, KeepOutZone } from '@pentagate/protocol';
import { distanceToBoundsM, inflatedBoundsM, pointInZoneShape } from '../geometry/keep-out-zone.js';
import { zoneDepthM } from '../geometry/zone-depth.js';
import { type ArmSkeleton, armSkeleton, skeletonPoints } from './arm-skeleton.js';
import { type DhTable, dhTable } from './forward-kinematics.js';
import { WorkArray, float64Work } from './work-arrays.js';
import { ZoneDepthRatchet } from './zone-depth-ratchet.js';

export interface ZoneHit {
  zoneIndex: number;
  kind: 'path' | 'stop' | 'not-left' | 'deeper';
  /** Index of the waypoint the hit is at or just before (0 = the start). */
  waypoint: number;
  /**
   * The checked point: on the link ending at `frame` (0-based, frame 1 = index 0), `alongLink` of the way
   * from the previous frame's origin (1 = the frame origin itself), at `pointM`, m.
   */
  frame: number;
  alongLink: number;
  pointM: [number, number, number];
  /** 'deeper', and 'stop' in a zone still occupied: how much deeper than allowed the point goes, m. */
  deeperByM?: number;
}

/**
 * How far the sweep grows every zone, m. A point of the skeleton between two checked points is within
 * spacing/2 of one of them at any instant (arm-skeleton.ts); a checked point between two path samples is
 * within spacing/2 of where it was sampled (it moves at most `spacingM` per step). So every point of every
 * link, at every instant of the path, lies within `spacingM` of a sampled checked point, and a zone grown by
 * that much holds a sample whenever the continuous arm enters the zone.
 */
export function sweepInflationM(spacingM: number): number {
  return spacingM;
}

export interface JointSweepInput {
  /** DH parameters, or a table from `dhTable` (precomputed once per profile). */
  dh: readonly DhParameters[] | DhTable;
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
  /** Zones (indexes) whose margin held the start. */
  startZones: number[];
  /** Per start zone (same order): each checked point's signed depth in it at the start, m (zone-depth.ts). */
  startDepthsM: Float64Array[];
  /** Start zones whose margin the path has not left by its end (held-zones.ts, remaining-path-sweep.ts). */
  endZones: number[];
}

/** The sweep's work arrays, reused from call to call (work-arrays.ts). */
const ORIGINS = float64Work();
const Q = float64Work();
const CLEARANCE = float64Work();
const OCCUPIED = new WorkArray((n) => new Uint8Array(n));

/** Rounding slack when spending clearance, m (far below any zone thickness). */
const CLEARANCE_SLACK_M = 1e-9;

/** Zone tests against one flat array of inflated bounding boxes (the broad phase) and the exact shapes. */
class ZoneTester {
  readonly bounds: Float64Array;

  constructor(
    readonly zones: readonly KeepOutZone[],
    readonly inflateM: number,
  ) {
    this.bounds = inflatedBoundsM(zones, inflateM);
  }

  /** True when (x, y, z) is inside zone `z` grown by the inflation. */
  inside(z: number, x: number, y: number, zz: number): boolean {
    const b = this.bounds;
    const o = 6 * z;
    if (x < b[o]! || y < b[o + 1]! || zz < b[o + 2]! || x > b[o + 3]! || y > b[o + 4]! || zz > b[o + 5]!) {
      return false;
    }
    return pointInZoneShape(this.zones[z]!, x, y, zz, this.inflateM);
  }

  /** First checked point (0-based) of `origins` inside zone `z`, or -1. */
  firstPointInside(z: number, origins: Float64Array, points: number): number {
    for (let f = 0; f < points; f++) {
      if (this.inside(z, origins[3 * f]!, origins[3 * f + 1]!, origins[3 * f + 2]!)) return f;
    }
    return -1;
  }
}

function hitAt(
  zoneIndex: number,
  kind: ZoneHit['kind'],
  waypoint: number,
  point: number,
  skeleton: ArmSkeleton,
  points: Float64Array,
  deeperByM = 0,
): ZoneHit {
  return {
    zoneIndex,
    kind,
    waypoint,
    frame: skeleton.frameOf[point]!,
    alongLink: skeleton.alongLink[point]!,
    pointM: [points[3 * point]!, points[3 * point + 1]!, points[3 * point + 2]!],
    ...(deeperByM > 0 ? { deeperByM } : {}),
  };
}

/** Steps the segment a → b is cut into, so no checked point moves more than `spacingM` per step. */
export function segmentSteps(
  a: readonly number[],
  b: readonly number[],
  leverArmsM: readonly number[],
  spacingM: number,
): { steps: number; travelM: number } {
  let travelM = 0;
  for (let j = 0; j < leverArmsM.length; j++) travelM += Math.abs(b[j]! - a[j]!) * leverArmsM[j]!;
  return { steps: Math.max(1, Math.ceil(travelM / spacingM)), travelM };
}

/**
 * The samples `sweepJointPath` takes on these waypoints when nothing is hit (the start, every path step and a
 * stopping point per waypoint): its cost, known before it runs, in O(waypoints × joints).
 */
export function jointSweepSamples(
  input: Pick<JointSweepInput, 'leverArmsM' | 'spacingM' | 'waypointsRad'>,
): number {
  const { waypointsRad } = input;
  let samples = 1;
  for (let w = 1; w < waypointsRad.length; w++) {
    samples +=
      segmentSteps(waypointsRad[w - 1]!, waypointsRad[w]!, input.leverArmsM, input.spacingM).steps + 1;
  }
  return samples;
}

export function sweepJointPath(input: JointSweepInput): JointSweepResult {
  const { zones, spacingM, waypointsRad } = input;
  const dh = input.dh instanceof Float64Array ? input.dh : dhTable(input.dh);
  const joints = dh.length / 5;
  const skeleton = armSkeleton(dh, spacingM);
  /** Checked points per pose. */
  const n = skeleton.points;
  const zoneCount = zones.length;
  const tester = new ZoneTester(zones, sweepInflationM(spacingM));
  /** The zones as drawn: which ones the arm is really inside at the end ('not-left'). */
  const drawn = new ZoneTester(zones, 0);
  const origins = ORIGINS.take(3 * n);
  const q = Q.take(joints);
  const pose = (qRad: ArrayLike<number>) => skeletonPoints(dh, skeleton, qRad, origins);
  pose(waypointsRad[0]!);
  const startZones: number[] = [];
  // A zone whose margin holds the start is occupied, inside it as drawn or not: excused as a whole, it let an
  // arm 1.5 cm above the table dive 18 cm into it (outside review), and an arm 1 cm inside go deeper before
  // leaving. So no point of it may go deeper (the ratchet), which leaves the arm free to back out or slide along.
  for (let z = 0; z < zoneCount; z++) if (tester.firstPointInside(z, origins, n) >= 0) startZones.push(z);
  /** 1 for a start zone not yet left (occupied), else 0. */
  const occupied = OCCUPIED.zeroed(zoneCount);
  const ratchet = new ZoneDepthRatchet(startZones.length > 0 ? zoneCount : 0, n, tester.inflateM);
  /** Signed depth of checked point `f` (origins computed) in zone `z` as drawn, m. */
  const depthM = (z: number, f: number) =>
    zoneDepthM(zones[z]!, origins[3 * f]!, origins[3 * f + 1]!, origins[3 * f + 2]!);
  const startDepthsM = startZones.map((z) => {
    occupied[z] = 1;
    const depths = new Float64Array(n);
    for (let f = 0; f < n; f++) {
      depths[f] = depthM(z, f);
      ratchet.start(z, f, depths[f]!);
    }
    return depths;
  });
  let occupiedCount = startZones.length;
  /** Per checked point: distance it may still travel before it could reach an unoccupied zone, m (0 = test now). */
  const clearanceM = CLEARANCE.zeroed(n);
  let samples = 1;

  /** Tests one path sample (origins already computed) after moving at most stepM since the last one. */
  const checkPathSample = (waypoint: number, stepM: number): ZoneHit | undefined => {
    if (occupiedCount > 0) {
      for (let z = 0; z < zoneCount; z++) {
        if (occupied[z] !== 1) continue;
        for (let f = 0; f < n; f++) {
          const deeperByM = ratchet.deeperByM(z, f, depthM(z, f));
          if (deeperByM > 0) return hitAt(z, 'deeper', waypoint, f, skeleton, origins, deeperByM);
        }
        if (tester.firstPointInside(z, origins, n) < 0) {
          occupied[z] = 0; // left it: from now on it is an ordinary zone
          occupiedCount--;
          clearanceM.fill(0); // clearances were measured without it
        }
      }
    }
    let hit: ZoneHit | undefined;
    for (let f = 0; f < n; f++) {
      const left = clearanceM[f]! - stepM;
      if (left > CLEARANCE_SLACK_M) {
        clearanceM[f] = left;
        continue;
      }
      const x = origins[3 * f]!;
      const y = origins[3 * f + 1]!;
      const zz = origins[3 * f + 2]!;
      let nearestM = Number.POSITIVE_INFINITY;
      for (let z = 0; z < zoneCount; z++) {
        if (occupied[z] === 1) continue;
        const d = distanceToBoundsM(tester.bounds, z, x, y, zz);
        if (d < nearestM) nearestM = d;
        // Lowest zone index first, then lowest point: the same hit as testing zone by zone, point by point.
        if (d === 0 && (hit === undefined || z < hit.zoneIndex) && tester.inside(z, x, y, zz)) {
          hit = hitAt(z, 'path', waypoint, f, skeleton, origins);
        }
      }
      clearanceM[f] = nearestM;
    }
    return hit;
  };

  /** Tests a stopping point (origins already computed) against every zone the path is not inside. */
  const checkStopSample = (waypoint: number): ZoneHit | undefined => {
    for (let z = 0; z < zoneCount; z++) {
      if (occupied[z] === 1) {
        for (let f = 0; f < n; f++) {
          const deeperByM = ratchet.wouldBeDeeperByM(z, f, depthM(z, f));
          if (deeperByM > 0) return hitAt(z, 'stop', waypoint, f, skeleton, origins, deeperByM);
        }
        continue;
      }
      const f = tester.firstPointInside(z, origins, n);
      if (f >= 0) return hitAt(z, 'stop', waypoint, f, skeleton, origins);
    }
    return undefined;
  };

  const done = (hit?: ZoneHit): JointSweepResult => {
    const endZones = startZones.filter((z) => occupied[z] === 1);
    const zones = { startZones, startDepthsM, endZones };
    return hit ? { hit, samples, ...zones } : { samples, ...zones };
  };

  for (let w = 1; w < waypointsRad.length; w++) {
    const a = waypointsRad[w - 1]!;
    const b = waypointsRad[w]!;
    const { steps, travelM } = segmentSteps(a, b, input.leverArmsM, spacingM);
    const stepM = travelM / steps;
    for (let s = 1; s <= steps; s++) {
      const u = s / steps;
      for (let j = 0; j < joints; j++) q[j] = a[j]! + (b[j]! - a[j]!) * u;
      pose(q);
      samples++;
      const hit = checkPathSample(w - 1, stepM);
      if (hit) return done(hit);
    }
    const v = input.velocitiesRadS[w];
    if (v && input.stoppingTimeS > 0) {
      // The stopping point is reached from the waypoint by a joint-space-linear move of q·T_s/2, so no checked
      // point ends more than stopM from where it is now; a point whose clearance exceeds that cannot end
      // inside an unoccupied zone. Only when some point could is the stopping point computed and tested.
      let stopM = 0;
      for (let j = 0; j < joints; j++)
        stopM += Math.abs((v[j] ?? 0) * (input.stoppingTimeS / 2)) * input.leverArmsM[j]!;
      let couldHit = occupiedCount > 0;
      for (let f = 0; f < n && !couldHit; f++) couldHit = clearanceM[f]! - stopM <= CLEARANCE_SLACK_M;
      samples++;
      if (couldHit) {
        for (let j = 0; j < joints; j++) q[j] = b[j]! + (v[j] ?? 0) * (input.stoppingTimeS / 2);
        pose(q);
        const hit = checkStopSample(w);
        if (hit) return done(hit);
      }
      // The clearances still describe the path at the waypoint (the stopping point is off the path), and
      // the next path sample recomputes `origins` before anything reads them.
    }
  }
  if (occupiedCount > 0) {
    // Ending in the margin of a start zone is allowed (the ratchet saw its clearance never decrease); ending
    // with a point inside it as drawn is not: a move from inside a zone must take the robot out of it.
    pose(waypointsRad[waypointsRad.length - 1]!);
    for (let z = 0; z < zoneCount; z++) {
      const f = occupied[z] === 1 ? drawn.firstPointInside(z, origins, n) : -1;
      if (f >= 0) return done(hitAt(z, 'not-left', waypointsRad.length - 1, f, skeleton, origins));
    }
  }
  return done();
}
