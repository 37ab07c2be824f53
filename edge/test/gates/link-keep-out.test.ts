/**
 * Keep-out zones are checked along the arm's links, not only at its frame origins (arm-skeleton.ts). A UR5e's
 * upper arm is 0.425 m between the shoulder and elbow origins: a post or a camera mast between them was
 * invisible to a check of the origins, and a move sweeping the link through it was signed.
 */
import {
  armSkeleton,
  dhTable,
  frameOrigins,
  pointInZone,
  segmentSteps,
  skeletonPoints,
  sweepJointPath,
} from '@pentagate/edge';
import type { DhParameters, KeepOutZone } from '@pentagate/protocol';
import fc from 'fast-check';
import t from 'tap';
import { HOME, T0, armIntent, armProfile, feedHealthy, makeGate } from '../trap/fixtures.js';
import { dh, joints, levers, zone } from './sweep-arbitraries.js';

/** Frame origins and DH corners (frame i−1's origin + dᵢ·zᵢ₋₁) from full 4×4 DH products, independently. */
function originsAndCorners(params: readonly DhParameters[], q: readonly number[]) {
  let m = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const mul = (a: number[], b: number[]) =>
    a.map((_, k) => {
      const [r, c] = [Math.floor(k / 4), k % 4];
      return [0, 1, 2, 3].reduce((s, i) => s + a[4 * r + i]! * b[4 * i + c]!, 0);
    });
  const origins: number[][] = [];
  const corners: number[][] = [];
  params.forEach((p, i) => {
    const th = q[i]! + p.thetaOffsetRad;
    const [ct, st, ca, sa] = [Math.cos(th), Math.sin(th), Math.cos(p.alphaRad), Math.sin(p.alphaRad)];
    corners.push([0, 1, 2].map((r) => m[4 * r + 3]! + p.dM * m[4 * r + 2]!));
    m = mul(m, [
      ct,
      -st * ca,
      st * sa,
      p.aM * ct,
      st,
      ct * ca,
      -ct * sa,
      p.aM * st,
      0,
      sa,
      ca,
      p.dM,
      0,
      0,
      0,
      1,
    ]);
    origins.push([m[3]!, m[7]!, m[11]!]);
  });
  return { origins, corners };
}

const distance = (a: readonly number[], b: readonly number[]) =>
  Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

/** Distance from p to the segment a–b, m. */
function toSegmentM(p: readonly number[], a: readonly number[], b: readonly number[]): number {
  const ab = [0, 1, 2].map((k) => b[k]! - a[k]!);
  const len2 = ab.reduce((s, x) => s + x * x, 0);
  const u =
    len2 === 0
      ? 0
      : Math.max(0, Math.min(1, [0, 1, 2].reduce((s, k) => s + (p[k]! - a[k]!) * ab[k]!, 0) / len2));
  return distance(
    p,
    [0, 1, 2].map((k) => a[k]! + u * ab[k]!),
  );
}

t.test(
  'the skeleton follows the DH legs, ends each link at its frame origin, points ≤ spacing apart',
  async (t) => {
    const table = dhTable(dh);
    for (const spacingM of [0.02, 0.05, 0.3]) {
      const skeleton = armSkeleton(table, spacingM);
      fc.assert(
        fc.property(joints, (q) => {
          const { origins, corners } = originsAndCorners(dh, q);
          const points = skeletonPoints(table, skeleton, q, new Float64Array(3 * skeleton.points));
          let previous = [0, 0, 0];
          for (let p = 0; p < skeleton.points; p++) {
            const f = skeleton.frameOf[p]!;
            const at = [points[3 * p]!, points[3 * p + 1]!, points[3 * p + 2]!];
            const from = f === 0 ? [0, 0, 0] : origins[f - 1]!;
            const onLink = Math.min(
              toSegmentM(at, from, corners[f]!),
              toSegmentM(at, corners[f]!, origins[f]!),
            );
            if (onLink > 1e-9) return false;
            if (distance(at, previous) > spacingM + 1e-9) return false;
            if (skeleton.alongLink[p] === 1 && distance(at, origins[f]!) > 1e-9) return false;
            previous = at;
          }
          // every frame's origin is the last point of its link
          return (
            [...skeleton.alongLink.keys()].filter((p) => skeleton.alongLink[p] === 1).length === dh.length
          );
        }),
        { numRuns: 200, seed: 20261129 },
      );
    }
    t.equal(
      armSkeleton(table, 0.02).points,
      9 + 22 + 20 + 7 + 5 + 5,
      'UR5e at 2 cm: ⌈leg / 2 cm⌉ points per leg',
    );
    t.equal(armSkeleton(table, 0.02), armSkeleton(table, 0.02), 'built once per table and spacing');
    // A frame on top of the previous one (a = d = 0, a tool flange with only a rotation) keeps its origin.
    const flange = [...dh, { aM: 0, dM: 0, alphaRad: 0.3, thetaOffsetRad: 0 }];
    const withFlange = armSkeleton(dhTable(flange), 0.02);
    t.equal(withFlange.points, armSkeleton(table, 0.02).points + 1);
    t.same([withFlange.frameOf.at(-1), withFlange.alongLink.at(-1)], [6, 1]);
    const q = [0.3, -1.2, 1, -0.5, 0.7, 0.2, 1];
    const pts = skeletonPoints(dhTable(flange), withFlange, q, new Float64Array(3 * withFlange.points));
    t.same([...pts.slice(-3)], [...pts.slice(-6, -3)], 'at the previous origin');
  },
);

t.test(
  'a move sweeping the upper arm through a small zone between its frame origins is vetoed',
  async (t) => {
    // The upright arm tilts its shoulder by 0.8 rad. Half-way, the middle of the upper arm (frame 1 → frame
    // 2, a straight leg: d₂ = 0) is where the zone is.
    const tilted = (byRad: number) => HOME.map((q, i) => (i === 1 ? q - byRad : q));
    const tilt = armIntent({
      points: [
        { positionsRad: tilted(0.4), effortsNm: [20, 60, 30, 5, 2, 1], timeFromStartMs: 1000 },
        { positionsRad: tilted(0.8), effortsNm: [20, 60, 30, 5, 2, 1], timeFromStartMs: 2000 },
      ],
    });
    const { origins } = originsAndCorners(dh, tilted(0.4));
    const centre = [0, 1, 2].map((k) => (origins[0]![k]! + origins[1]![k]!) / 2);
    const post: KeepOutZone = {
      id: 'sensor-post',
      shape: 'sphere',
      centerM: { x: centre[0]!, y: centre[1]!, z: centre[2]! },
      radiusM: 0.03,
    };
    // No frame origin comes near it anywhere on the move (1,001 poses): a check of the origins signs it.
    let nearestOriginM = Number.POSITIVE_INFINITY;
    const o = new Float64Array(18);
    for (let s = 0; s <= 1000; s++) {
      frameOrigins(dh, tilted((0.8 * s) / 1000), o);
      for (let f = 0; f < 6; f++)
        nearestOriginM = Math.min(
          nearestOriginM,
          distance([o[3 * f]!, o[3 * f + 1]!, o[3 * f + 2]!], centre),
        );
    }
    t.ok(
      nearestOriginM > 0.15,
      `the nearest frame origin passes ${nearestOriginM.toFixed(3)} m from the zone's centre`,
    );

    const { gate, profile } = makeGate(armProfile((p) => p.keepOut.zones.push(post)));
    feedHealthy(gate, profile);
    const { verdict } = gate.trapAndSign(tilt, T0);
    t.equal(verdict.outcome, 'vetoed');
    t.match(
      verdict.gates.find((g) => g.vertex === 'INVARIANT')?.violations.join('\n'),
      /INVARIANT\.KEEP_OUT_PATH: the link to frame 2 \(\d+ % along\) enters zone sensor-post at \(/,
      'the violation names the link and how far along it',
    );

    const clear = makeGate();
    feedHealthy(clear.gate, clear.profile);
    t.equal(
      clear.gate.trapAndSign(tilt, T0).verdict.outcome,
      'signed',
      'without the zone the move is signed',
    );
  },
);

/**
 * A number spread evenly over [min, max]: `fc.double` spreads over the representable doubles, most of which
 * lie near 0, so its joint vectors mostly stand still and its offsets are all but 0.
 */
const even = (min: number, max: number) =>
  fc.noBias(fc.integer({ min: 0, max: 1_000_000 })).map((k) => min + ((max - min) * k) / 1_000_000);
const evenJoints = fc.tuple(...Array.from({ length: 6 }, () => even(-3.2, 3.2)));

/** A small zone near a point of some link somewhere on the path, so that many paths graze or cross one. */
const nearPath = fc.record({
  segment: fc.nat(7),
  u: even(0, 1),
  /** where along the arm, past the base column (link 1 turns about its own axis and never moves) */
  along: even(0, 1),
  offsetM: fc.tuple(even(-0.06, 0.06), even(-0.06, 0.06), even(-0.06, 0.06)),
  sizeM: even(0.005, 0.08),
  box: fc.boolean(),
});
type NearPath = typeof nearPath extends fc.Arbitrary<infer T> ? T : never;

function zoneNearPath(n: NearPath, path: readonly (readonly number[])[]): KeepOutZone {
  const w = 1 + (n.segment % (path.length - 1));
  const q = path[w - 1]!.map((a, j) => a + (path[w]![j]! - a) * n.u);
  const table = dhTable(dh);
  const skeleton = armSkeleton(table, 0.01);
  const points = skeletonPoints(table, skeleton, q, new Float64Array(3 * skeleton.points));
  const pastBase = skeleton.frameOf.indexOf(1);
  const p = Math.min(skeleton.points - 1, pastBase + Math.floor(n.along * (skeleton.points - pastBase)));
  const [x, y, z] = [0, 1, 2].map((k) => points[3 * p + k]! + n.offsetM[k]!) as [number, number, number];
  const r = n.sizeM;
  return n.box
    ? {
        id: 'near-box',
        shape: 'box',
        minM: { x: x - r, y: y - r, z: z - r },
        maxM: { x: x + r, y: y + r, z: z + r },
      }
    : { id: 'near-ball', shape: 'sphere', centerM: { x, y, z }, radiusM: r };
}

t.test(
  'no point of any link enters a zone on the continuous path unless the sweep reports a hit',
  async (t) => {
    // Checked 8× finer than the sweep, in time and along the links, against the zones as drawn (no margin).
    const table = dhTable(dh);
    let entered = 0;
    fc.assert(
      fc.property(
        fc.array(zone, { minLength: 0, maxLength: 2 }),
        fc.array(nearPath, { minLength: 1, maxLength: 3 }),
        fc.array(evenJoints, { minLength: 2, maxLength: 4 }),
        fc.constantFrom(0.02, 0.05),
        (randomZones, near, waypointsRad, spacingM) => {
          const sweep = (zones: KeepOutZone[], path: number[][]) =>
            sweepJointPath({
              dh,
              leverArmsM: levers,
              zones,
              spacingM,
              waypointsRad: path,
              velocitiesRadS: [],
              stoppingTimeS: 0,
            });
          // A zone that holds the start may be occupied until the path leaves it: only the others are checked.
          const drawn = [...randomZones, ...near.map((n) => zoneNearPath(n, waypointsRad))];
          const zones = drawn.filter((z) => sweep([z], waypointsRad.slice(0, 1)).startZones.length === 0);
          const swept = sweep(zones, waypointsRad);
          const fine = armSkeleton(table, spacingM / 8);
          const points = new Float64Array(3 * fine.points);
          const inside = (q: readonly number[]) => {
            skeletonPoints(table, fine, q, points);
            for (let p = 0; p < fine.points; p++)
              for (const z of zones)
                if (pointInZone(z, points[3 * p]!, points[3 * p + 1]!, points[3 * p + 2]!)) return true;
            return false;
          };
          for (let w = 1; w < waypointsRad.length; w++) {
            const [a, b] = [waypointsRad[w - 1]!, waypointsRad[w]!];
            const steps = 8 * segmentSteps(a, b, levers, spacingM).steps;
            for (let s = 1; s <= steps; s++) {
              if (inside(a.map((qa, j) => qa + (b[j]! - qa) * (s / steps)))) {
                entered++;
                return swept.hit !== undefined;
              }
            }
          }
          return true;
        },
      ),
      { numRuns: 300, seed: 20261129 },
    );
    t.ok(entered > 100, `the random cases include paths whose links enter a zone (${entered})`);
  },
);
