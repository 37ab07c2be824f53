/**
 * What the no-deeper rule (kinematics/zone-depth-ratchet.ts) guarantees, checked independently of the sweeps'
 * own sampling: on a path the sweep lets through from inside a zone or its margin, no checked point (an arm's
 * skeleton point, a base's centre in the plane) is ever deeper in that zone than DEEPER_TOLERANCE_M below
 * where it was at the start, or than the margin if that is nearer the zone, plus half a sampling step (the
 * most a point moves away from its nearest sample); and the path ends outside the zone as drawn. So a point
 * that starts outside the margin stays as far out as it must from an ordinary zone. Checked 8× finer in time than the sweep samples.
 */
import {
  DEEPER_TOLERANCE_M,
  armSkeleton,
  basePositionAt,
  baseSweepSteps,
  dhTable,
  planarDepthM,
  segmentSteps,
  skeletonPoints,
  sweepBasePath,
  sweepInflationM,
  sweepJointPath,
  zoneBoundsM,
  zoneDepthM,
} from '@pentagate/edge';
import type { KeepOutZone } from '@pentagate/protocol';
import fc from 'fast-check';
import t from 'tap';
import { evenM, evenRad, evenZone } from './even-arbitraries.js';
import { dh, levers } from './sweep-arbitraries.js';

const FINER = 8;

/** `zone` moved so that the centre of its bounding box is at `c`, m. */
function centredAt(zone: KeepOutZone, c: readonly number[]): KeepOutZone {
  const box = zoneBoundsM(zone);
  const [ox, oy, oz] = [0, 1, 2].map((k) => c[k]! - (box[k]! + box[3 + k]!) / 2) as [number, number, number];
  switch (zone.shape) {
    case 'box':
      return {
        ...zone,
        minM: { x: zone.minM.x + ox, y: zone.minM.y + oy, z: zone.minM.z + oz },
        maxM: { x: zone.maxM.x + ox, y: zone.maxM.y + oy, z: zone.maxM.z + oz },
      };
    case 'sphere':
      return { ...zone, centerM: { x: zone.centerM.x + ox, y: zone.centerM.y + oy, z: zone.centerM.z + oz } };
    case 'prism':
      return {
        ...zone,
        polygonM: zone.polygonM.map((p) => ({ x: p.x + ox, y: p.y + oy })),
        zMinM: zone.zMinM + oz,
        zMaxM: zone.zMaxM + oz,
      };
  }
}

t.test('a base let through from inside a zone or its margin never goes deeper', async (t) => {
  let fromInside = 0;
  fc.assert(
    fc.property(
      evenZone(1000),
      fc.tuple(evenM(-500, 1500), evenM(-500, 1500)),
      fc.tuple(evenM(-1000, 1000), evenM(-1000, 1000), evenRad(-1000, 1000)),
      evenM(100, 3000),
      fc.constantFrom(0.02, 0.05),
      fc.constantFrom(0, 0.5),
      (zone, [u, v], [vx, vy, omega], durationS, spacingM, stoppingTimeS) => {
        const box = zoneBoundsM(zone);
        const input = {
          zones: [zone],
          spacingM,
          footprintRadiusM: 0.35,
          startM: { x: box[0]! + u * (box[3]! - box[0]!), y: box[1]! + v * (box[4]! - box[1]!), z: 0 },
          yawRad: 0.3,
          linearMps: { x: vx, y: vy, z: 0 },
          angularRadS: omega,
          durationS,
          stoppingTimeS,
        };
        const sweep = sweepBasePath(input);
        if (sweep.hit || sweep.startZones.length === 0) return true;
        fromInside++;
        const marginM = spacingM / 2 + input.footprintRadiusM;
        const depthAt = (tS: number) => {
          const [x, y] = basePositionAt(input, tS);
          return planarDepthM(zone, x, y);
        };
        const boundM = Math.max(depthAt(0) + DEEPER_TOLERANCE_M, -marginM) + spacingM / 2;
        const fine = FINER * baseSweepSteps(input);
        for (let k = 1; k <= fine; k++) {
          if (depthAt((durationS * k) / fine) > boundM) return false;
        }
        return depthAt(durationS) <= -input.footprintRadiusM;
      },
    ),
    { numRuns: 3000, seed: 20261129 },
  );
  t.ok(fromInside > 100, `moves from inside a zone or its margin were let through (${fromInside})`);
});

t.test('an arm path let through from inside a zone or its margin never goes deeper', async (t) => {
  const table = dhTable(dh);
  let fromInside = 0;
  fc.assert(
    fc.property(
      evenZone(0),
      fc.tuple(fc.noBias(fc.nat(1000)), evenM(-100, 100), evenM(-100, 100), evenM(-100, 100)),
      fc.array(evenRad(-3200, 3200), { minLength: 6, maxLength: 6 }),
      fc.array(fc.array(evenRad(-400, 400), { minLength: 6, maxLength: 6 }), { minLength: 1, maxLength: 3 }),
      fc.constantFrom(0.02, 0.05),
      (drawn, [pick, dx, dy, dz], startRad, steps, spacingM) => {
        const skeleton = armSkeleton(table, spacingM);
        const n = skeleton.points;
        const points = new Float64Array(3 * n);
        // The zone is centred near a skeleton point of the start, so the arm often starts in it or its margin.
        skeletonPoints(table, skeleton, startRad, points);
        const f = pick % n;
        const zone = centredAt(drawn, [
          points[3 * f]! + dx,
          points[3 * f + 1]! + dy,
          points[3 * f + 2]! + dz,
        ]);
        const waypointsRad = [startRad];
        for (const d of steps) waypointsRad.push(waypointsRad.at(-1)!.map((q, j) => q + d[j]!));
        const sweep = sweepJointPath({
          dh: table,
          leverArmsM: levers,
          zones: [zone],
          spacingM,
          waypointsRad,
          velocitiesRadS: [],
          stoppingTimeS: 0,
        });
        if (sweep.hit || sweep.startZones.length === 0) return true;
        fromInside++;
        const depths = (q: readonly number[]) => {
          skeletonPoints(table, skeleton, q, points);
          return Array.from({ length: n }, (_, f) =>
            zoneDepthM(zone, points[3 * f]!, points[3 * f + 1]!, points[3 * f + 2]!),
          );
        };
        const marginM = sweepInflationM(spacingM);
        const boundM = depths(startRad).map((d) => Math.max(d + DEEPER_TOLERANCE_M, -marginM) + spacingM / 2);
        for (let w = 1; w < waypointsRad.length; w++) {
          const [a, b] = [waypointsRad[w - 1]!, waypointsRad[w]!];
          const fine = FINER * segmentSteps(a, b, levers, spacingM).steps;
          for (let k = 1; k <= fine; k++) {
            const q = a.map((x, j) => x + ((b[j]! - x) * k) / fine);
            if (depths(q).some((d, f) => d > boundM[f]!)) return false;
          }
        }
        return depths(waypointsRad.at(-1)!).every((d) => d <= 0);
      },
    ),
    { numRuns: 1500, seed: 20261129 },
  );
  t.ok(fromInside > 30, `paths from inside a zone or its margin were let through (${fromInside})`);
});
