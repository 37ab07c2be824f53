/**
 * The keep-out sweep skips zone tests only where a checked point provably cannot be inside a zone
 * (conservative advancement, joint-path-sweep.ts). This property pins that: on random paths through random
 * zones, it reports exactly what testing every zone at every sample reports — the straightforward sweep
 * below, which is the algorithm before the optimisation, over the same checked points (the arm's skeleton).
 * It also holds the zones the start is in (or within the margin of) to the no-deeper rule written out plainly:
 * per point, its depth may not rise more than DEEPER_TOLERANCE_M above the shallowest it has been, nor ever
 * need to stay below minus the margin, on the path and at the stopping points; the path may end in the margin
 * but not inside.
 */
import {
  DEEPER_TOLERANCE_M,
  type JointSweepInput,
  type ZoneHit,
  armSkeleton,
  dhTable,
  pointInZone,
  skeletonPoints,
  sweepInflationM,
  sweepJointPath,
  zoneDepthM,
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
  const hitAt = (
    zoneIndex: number,
    kind: ZoneHit['kind'],
    waypoint: number,
    f: number,
    deeperByM = 0,
  ): ZoneHit => ({
    zoneIndex,
    kind,
    waypoint,
    frame: skeleton.frameOf[f]!,
    alongLink: skeleton.alongLink[f]!,
    pointM: [origins[3 * f]!, origins[3 * f + 1]!, origins[3 * f + 2]!],
    ...(deeperByM > 0 ? { deeperByM } : {}),
  });
  const firstInside = (z: number, byM: number): number => {
    for (let f = 0; f < n; f++)
      if (pointInZone(zones[z]!, origins[3 * f]!, origins[3 * f + 1]!, origins[3 * f + 2]!, byM)) return f;
    return -1;
  };
  const depth = (z: number, f: number) =>
    zoneDepthM(zones[z]!, origins[3 * f]!, origins[3 * f + 1]!, origins[3 * f + 2]!);
  pose(waypointsRad[0]!);
  // held: a checked point inside the zone or its margin
  const startZones = zones.flatMap((_, z) => (firstInside(z, inflateM) >= 0 ? [z] : []));
  const occupied = new Set(startZones);
  /** Per start zone, per point: the shallowest depth on the path so far, m. */
  const shallowest = new Map(startZones.map((z) => [z, Array.from({ length: n }, (_, f) => depth(z, f))]));
  const startDepthsM = startZones.map((z) => Float64Array.from(shallowest.get(z)!));
  /** How much deeper than allowed point f is in zone z, m (0 within the tolerance, or outside the margin). */
  const over = (z: number, f: number) => {
    const d = depth(z, f);
    const least = shallowest.get(z)![f]!;
    return d > least + DEEPER_TOLERANCE_M && d > -inflateM ? d - Math.max(least, -inflateM) : 0;
  };
  let samples = 1;
  const check = (waypoint: number, kind: 'path' | 'stop'): ZoneHit | undefined => {
    for (const z of occupied) {
      if (kind === 'stop') continue;
      for (let f = 0; f < n; f++) {
        const d = over(z, f);
        if (d > 0) return hitAt(z, 'deeper', waypoint, f, d);
        shallowest.get(z)![f] = Math.min(shallowest.get(z)![f]!, depth(z, f));
      }
      if (firstInside(z, inflateM) < 0) occupied.delete(z);
    }
    for (let z = 0; z < zones.length; z++) {
      if (occupied.has(z) && kind === 'stop') {
        for (let f = 0; f < n; f++) {
          const d = over(z, f);
          if (d > 0) return hitAt(z, 'stop', waypoint, f, d);
        }
      }
      if (occupied.has(z)) continue;
      const inside = firstInside(z, inflateM);
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
      if (hit) return { hit, samples, startZones, startDepthsM, endZones: [...occupied] };
    }
    const v = input.velocitiesRadS[w];
    if (v && input.stoppingTimeS > 0) {
      for (let j = 0; j < joints; j++) q[j] = b[j]! + (v[j] ?? 0) * (input.stoppingTimeS / 2);
      pose(q);
      samples++;
      const hit = check(w, 'stop');
      if (hit) return { hit, samples, startZones, startDepthsM, endZones: [...occupied] };
    }
  }
  const endZones = [...occupied];
  pose(waypointsRad[waypointsRad.length - 1]!);
  for (const z of endZones) {
    const inside = firstInside(z, 0);
    if (inside >= 0) {
      const hit = hitAt(z, 'not-left', waypointsRad.length - 1, inside);
      return { hit, samples, startZones, startDepthsM, endZones };
    }
  }
  return { samples, startZones, startDepthsM, endZones };
}

t.test('the sweep reports exactly what testing every zone at every sample reports', async (t) => {
  let hits = 0;
  let deeper = 0;
  let leftOrAlong = 0;
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
        if (expected.hit?.kind === 'deeper') deeper++;
        if (expected.startZones.length > 0 && !expected.hit) leftOrAlong++;
        t.strictSame(got, expected);
        return true;
      },
    ),
    { numRuns: 400, seed: 20261123 },
  );
  t.ok(hits > 50, `the random cases include paths that hit a zone (${hits})`);
  t.ok(deeper > 20, `and paths that go deeper into a zone they start in (${deeper})`);
  t.ok(leftOrAlong > 0, `and paths that start in a zone and are allowed (${leftOrAlong})`);
});
