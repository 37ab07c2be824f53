/**
 * The keep-out sweep skips zone tests only where a checked point provably cannot be inside a zone
 * (conservative advancement, joint-path-sweep.ts). This property pins that: on random paths through random
 * zones, it reports exactly what testing every zone at every sample reports — the straightforward sweep
 * below, which is the algorithm before the optimisation, over the same checked points (the arm's skeleton).
 */
import {
  type JointSweepInput,
  type ZoneHit,
  armSkeleton,
  dhTable,
  pointInZone,
  skeletonPoints,
  sweepInflationM,
  sweepJointPath,
} from '@pentagate/edge';
import type { DhParameters } from '@pentagate/protocol';
import fc from 'fast-check';
import t from 'tap';
import { dh, joints, levers, profile, zone } from './sweep-arbitraries.js';

function referenceSweep(input: JointSweepInput & { dh: readonly DhParameters[] }) {
  const { zones, spacingM, waypointsRad } = input;
  const table = dhTable(input.dh);
  const skeleton = armSkeleton(table, spacingM);
  const joints = waypointsRad[0]!.length;
  const n = skeleton.points;
  const inflateM = sweepInflationM(spacingM);
  const origins = new Float64Array(3 * n);
  const q = new Float64Array(joints);
  const pose = (qRad: ArrayLike<number>) => skeletonPoints(table, skeleton, qRad, origins);
  const hitAt = (zoneIndex: number, kind: ZoneHit['kind'], waypoint: number, f: number): ZoneHit => ({
    zoneIndex,
    kind,
    waypoint,
    frame: skeleton.frameOf[f]!,
    alongLink: skeleton.alongLink[f]!,
    pointM: [origins[3 * f]!, origins[3 * f + 1]!, origins[3 * f + 2]!],
  });
  const holding = (): number[] =>
    zones.flatMap((zone, z) => {
      for (let f = 0; f < n; f++)
        // held: a checked point inside the zone as drawn (within the margin is not inside)
        if (pointInZone(zone, origins[3 * f]!, origins[3 * f + 1]!, origins[3 * f + 2]!)) return [z];
      return [];
    });
  pose(waypointsRad[0]!);
  const startZones = holding();
  const occupied = new Set(startZones);
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
        if (inside < 0) occupied.delete(z);
        continue;
      }
      if (kind === 'stop' && occupied.has(z)) continue;
      if (inside >= 0) return hitAt(z, kind, waypoint, inside);
    }
    return undefined;
  };
  for (let w = 1; w < waypointsRad.length; w++) {
    const a = waypointsRad[w - 1]!;
    const b = waypointsRad[w]!;
    let travelM = 0;
    for (let j = 0; j < joints; j++) travelM += Math.abs(b[j]! - a[j]!) * input.leverArmsM[j]!;
    const steps = Math.max(1, Math.ceil(travelM / spacingM));
    for (let s = 1; s <= steps; s++) {
      for (let j = 0; j < joints; j++) q[j] = a[j]! + (b[j]! - a[j]!) * (s / steps);
      pose(q);
      samples++;
      const hit = check(w - 1, 'path');
      if (hit) return { hit, samples, startZones };
    }
    const v = input.velocitiesRadS[w];
    if (v && input.stoppingTimeS > 0) {
      for (let j = 0; j < joints; j++) q[j] = b[j]! + (v[j] ?? 0) * (input.stoppingTimeS / 2);
      pose(q);
      samples++;
      const hit = check(w, 'stop');
      if (hit) return { hit, samples, startZones };
    }
  }
  const stillIn = [...occupied][0];
  if (stillIn !== undefined) {
    pose(waypointsRad[waypointsRad.length - 1]!);
    return { hit: hitAt(stillIn, 'not-left', waypointsRad.length - 1, 0), samples, startZones };
  }
  return { samples, startZones };
}

t.test('the sweep reports exactly what testing every zone at every sample reports', async (t) => {
  let hits = 0;
  fc.assert(
    fc.property(
      fc.array(zone, { minLength: 0, maxLength: 12 }),
      fc.array(joints, { minLength: 2, maxLength: 8 }),
      fc.option(fc.array(joints, { minLength: 8, maxLength: 8 }), { nil: undefined }),
      fc.constantFrom(0.005, 0.02, 0.05),
      fc.constantFrom(0, 0.3),
      (zones, waypointsRad, velocities, spacingM, stoppingTimeS) => {
        const input = {
          leverArmsM: levers,
          zones: [...profile.keepOut.zones, ...zones],
          spacingM,
          waypointsRad,
          velocitiesRadS: velocities ?? [],
          stoppingTimeS,
        };
        const expected = referenceSweep({ ...input, dh });
        const got = sweepJointPath({ ...input, dh });
        if (expected.hit) hits++;
        t.strictSame(got, expected);
        return true;
      },
    ),
    { numRuns: 400, seed: 20261123 },
  );
  t.ok(hits > 50, `the random cases include paths that hit a zone (${hits})`);
});
