/**
 * The keep-out sweep skips zone tests only where a frame origin provably cannot be inside a zone
 * (conservative advancement, joint-path-sweep.ts). This property pins that: on random paths through random
 * zones, it reports exactly what testing every zone at every sample reports — the straightforward sweep
 * below, which is the algorithm before the optimisation.
 */
import {
  type JointSweepInput,
  type ZoneHit,
  frameOrigins,
  pointInZone,
  sweepJointPath,
} from '@pentagate/edge';
import fc from 'fast-check';
import t from 'tap';
import { dh, joints, levers, profile, zone } from './sweep-arbitraries.js';

function referenceSweep(input: JointSweepInput & { dh: NonNullable<Parameters<typeof frameOrigins>[0]> }) {
  const { dh, zones, spacingM, waypointsRad } = input;
  const n = waypointsRad[0]!.length;
  const inflateM = spacingM / 2;
  const origins = new Float64Array(3 * n);
  const q = new Float64Array(n);
  const holding = (): number[] =>
    zones.flatMap((zone, z) => {
      for (let f = 0; f < n; f++)
        if (pointInZone(zone, origins[3 * f]!, origins[3 * f + 1]!, origins[3 * f + 2]!, inflateM))
          return [z];
      return [];
    });
  frameOrigins(dh, waypointsRad[0]!, origins);
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
      if (inside >= 0) {
        const p: [number, number, number] = [
          origins[3 * inside]!,
          origins[3 * inside + 1]!,
          origins[3 * inside + 2]!,
        ];
        return { zoneIndex: z, kind, waypoint, frame: inside, pointM: p };
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
      for (let j = 0; j < n; j++) q[j] = a[j]! + (b[j]! - a[j]!) * (s / steps);
      frameOrigins(dh, q, origins);
      samples++;
      const hit = check(w - 1, 'path');
      if (hit) return { hit, samples, startZones };
    }
    const v = input.velocitiesRadS[w];
    if (v && input.stoppingTimeS > 0) {
      for (let j = 0; j < n; j++) q[j] = b[j]! + (v[j] ?? 0) * (input.stoppingTimeS / 2);
      frameOrigins(dh, q, origins);
      samples++;
      const hit = check(w, 'stop');
      if (hit) return { hit, samples, startZones };
    }
  }
  const stillIn = [...occupied][0];
  if (stillIn !== undefined) {
    frameOrigins(dh, waypointsRad[waypointsRad.length - 1]!, origins);
    const p: [number, number, number] = [origins[0]!, origins[1]!, origins[2]!];
    return {
      hit: { zoneIndex: stillIn, kind: 'not-left', waypoint: waypointsRad.length - 1, frame: 0, pointM: p },
      samples,
      startZones,
    };
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
