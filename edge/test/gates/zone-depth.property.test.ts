/**
 * zoneDepthM and planarDepthM (geometry/zone-depth.ts), the depth the no-deeper rule ratchets: positive
 * exactly inside the zone, its size the distance to the boundary (a point moved by less than its depth stays
 * inside; the zone grown by minus the depth reaches a point outside), and 1-Lipschitz (a point moved by d
 * changes its depth by at most d), which is what bounds the depth between two samples of a path.
 */
import { footprintInZone, planarDepthM, pointInZone, zoneBoundsM, zoneDepthM } from '@pentagate/edge';
import type { KeepOutZone } from '@pentagate/protocol';
import fc from 'fast-check';
import t from 'tap';
import { evenM, evenZone } from './even-arbitraries.js';

/** A place in or around a zone's bounding box (from 30 % of its size before it to 30 % after), per mille. */
const place = fc.tuple(evenM(-300, 1300), evenM(-300, 1300), evenM(-300, 1300));
/** A zone and two points spread evenly in and around it. */
const zoneAndPoints = fc.tuple(evenZone(1000), place, place).map(([zone, a, b]) => {
  const at = (u: number[]): [number, number, number] => {
    const box = zoneBoundsM(zone);
    return [0, 1, 2].map((k) => box[k]! + u[k]! * (box[3 + k]! - box[k]!)) as [number, number, number];
  };
  return { zone: zone as KeepOutZone, a: at(a), b: at(b) };
});
/** A direction (not normalised; never zero). */
const direction = fc
  .tuple(evenM(-1000, 1000), evenM(-1000, 1000), evenM(-1000, 1000))
  .filter(([x, y, z]) => Math.hypot(x, y, z) > 0.01);
const RUNS = { numRuns: 3000, seed: 20261129 };
/** Round-off allowed when a depth is compared with a containment test, m. */
const EPS_M = 1e-9;

t.test('the depth is positive inside the zone and negative outside it', async (t) => {
  let inside = 0;
  fc.assert(
    fc.property(zoneAndPoints, ({ zone, a: [x, y, z] }) => {
      const d = zoneDepthM(zone, x, y, z);
      if (Math.abs(d) < EPS_M) return true; // on the boundary
      if (d > 0) inside++;
      return pointInZone(zone, x, y, z) === d > 0;
    }),
    RUNS,
  );
  t.ok(inside > 300, `points inside zones were drawn (${inside})`);
});

t.test(
  'a point moved by less than its depth stays inside; by more than its clearance it can reach the zone',
  async () => {
    fc.assert(
      fc.property(zoneAndPoints, direction, ({ zone, a: [x, y, z] }, [ux, uy, uz]) => {
        const d = zoneDepthM(zone, x, y, z);
        if (d <= 0) return pointInZone(zone, x, y, z, -d + EPS_M); // the clearance reaches the zone
        const k = (d - EPS_M) / Math.hypot(ux, uy, uz);
        return pointInZone(zone, x + k * ux, y + k * uy, z + k * uz);
      }),
      RUNS,
    );
  },
);

t.test('the depth changes by at most the distance moved (3-D and in the plane)', async () => {
  fc.assert(
    fc.property(zoneAndPoints, ({ zone, a: [ax, ay, az], b: [bx, by, bz] }) => {
      const moved = Math.hypot(bx - ax, by - ay, bz - az);
      const planarMoved = Math.hypot(bx - ax, by - ay);
      return (
        Math.abs(zoneDepthM(zone, ax, ay, az) - zoneDepthM(zone, bx, by, bz)) <= moved + EPS_M &&
        Math.abs(planarDepthM(zone, ax, ay) - planarDepthM(zone, bx, by)) <= planarMoved + EPS_M
      );
    }),
    RUNS,
  );
});

t.test(
  'the planar depth is the base footprint test: a footprint of radius r meets the zone at depth > -r',
  async () => {
    fc.assert(
      fc.property(zoneAndPoints, evenM(0, 500), ({ zone, a: [x, y] }, radiusM) => {
        const d = planarDepthM(zone, x, y);
        if (Math.abs(d + radiusM) < 1e-6) return true; // on the footprint's edge
        // footprintInZone inflates a box per axis (a superset near its corners), so only one direction is exact
        return d > -radiusM ? footprintInZone(zone, x, y, radiusM) : true;
      }),
      RUNS,
    );
  },
);
