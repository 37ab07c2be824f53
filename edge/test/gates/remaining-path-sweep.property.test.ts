/**
 * A running motion's re-sweep splits its remaining path at the next waypoint and reuses the plan's tail
 * (remaining-path-sweep.ts). This property pins that the split changes nothing: while a random plan runs
 * through random zones, every re-check from a measured state near the next waypoint or anywhere, inside a
 * zone or not — the same tail reused, a shorter one after a waypoint is passed, the zones changed by a
 * profile reload — reports exactly what sweeping the whole remaining path reports.
 */
import { type JointSweepInput, PlanTailSweeps, frameOrigins, sweepJointPath } from '@pentagate/edge';
import type { KeepOutZone } from '@pentagate/protocol';
import fc from 'fast-check';
import t from 'tap';
import { dh, joints, levers, profile, zone } from './sweep-arbitraries.js';

/** A ball around one frame origin of `q`: a measured state that starts inside a zone. */
function ballAround(q: readonly number[], frame: number, radiusM: number): KeepOutZone {
  const origins = new Float64Array(3 * q.length);
  frameOrigins(dh, q, origins);
  const [x, y, z] = [origins[3 * frame]!, origins[3 * frame + 1]!, origins[3 * frame + 2]!];
  return { id: 'held', shape: 'sphere', centerM: { x, y, z }, radiusM };
}

const recheck = fc.record({
  /** how many of the plan's waypoints remain (clamped to the plan) */
  remaining: fc.integer({ min: 1, max: 5 }),
  /** anywhere (a robot pushed off its path), or near the next waypoint as a robot on its path mostly is */
  measured: joints,
  anywhere: fc.integer({ min: 0, max: 3 }).map((k) => k === 0),
  measuredVelocity: joints,
  /**
   * A ball around frame holdFrame of the measured state (one of the last three, which move), so that some
   * re-checks start inside a zone: 3 in 10; below 3 there is none.
   */
  holdFrame: fc.integer({ min: -4, max: 5 }),
  holdRadiusM: fc.double({ min: 0.05, max: 0.3, noNaN: true }),
  /** a profile reload: the zones without the last random one */
  reloaded: fc.boolean(),
});

t.test(
  'a re-sweep reusing the plan tail reports exactly what sweeping the whole remaining path reports',
  async (t) => {
    const seen = { hits: 0, tailHits: 0, notLeftFirst: 0, reused: 0 };
    fc.assert(
      fc.property(
        fc.array(zone, { minLength: 0, maxLength: 5 }),
        fc.array(joints, { minLength: 2, maxLength: 8 }),
        fc.array(joints, { minLength: 8, maxLength: 8 }),
        // re-checks in the order a running motion makes them (fewer waypoints left, or as many again)
        fc
          .array(recheck, { minLength: 1, maxLength: 10 })
          .map((rs) => rs.sort((a, b) => b.remaining - a.remaining)),
        fc.constantFrom(0.02, 0.05),
        fc.constantFrom(0, 0.3),
        (randomZones, plan, planVelocities, rechecks, spacingM, stoppingTimeS) => {
          const tails = new PlanTailSweeps();
          const profiles = [{ zones: randomZones }, { zones: randomZones.slice(0, -1) }];
          for (const r of rechecks) {
            const loaded = r.reloaded ? profiles[1]! : profiles[0]!;
            const remaining = Math.min(r.remaining, plan.length);
            const next = plan[plan.length - remaining]!;
            const measured = r.anywhere ? r.measured : next.map((q, j) => q + r.measured[j]! / 40);
            const held = r.holdFrame < 3 ? [] : [ballAround(measured, r.holdFrame, r.holdRadiusM)];
            const input: JointSweepInput = {
              dh,
              leverArmsM: levers,
              zones: [...loaded.zones, ...held],
              spacingM,
              waypointsRad: [measured, ...plan.slice(plan.length - remaining)],
              velocitiesRadS: [r.measuredVelocity, ...planVelocities.slice(plan.length - remaining)],
              stoppingTimeS,
            };
            // The held ball is part of the zones only on this re-check: a profile of its own (`under`).
            const under = held.length > 0 ? {} : loaded;
            const expected = sweepJointPath(input);
            const sweptBefore = tails.tailsSwept;
            const got = tails.sweep(under, input);
            t.strictSame(got, expected);
            if (expected.hit) seen.hits++;
            if (expected.hit && expected.hit.waypoint >= 1 && expected.hit.kind !== 'not-left')
              seen.tailHits++;
            const firstSegment = sweepJointPath({
              ...input,
              waypointsRad: input.waypointsRad.slice(0, 2),
              velocitiesRadS: input.velocitiesRadS.slice(0, 2),
            });
            if (firstSegment.hit?.kind === 'not-left') seen.notLeftFirst++;
            if (remaining >= 2 && !firstSegment.hit && tails.tailsSwept === sweptBefore) seen.reused++;
          }
          return true;
        },
      ),
      { numRuns: 300, seed: 20261128 },
    );
    // The cases reach every branch: hits in the tail, a start zone not left by the first segment, reused tails.
    t.ok(seen.hits > 50, `hits: ${seen.hits}`);
    t.ok(seen.tailHits > 10, `hits after the first segment: ${seen.tailHits}`);
    t.ok(
      seen.notLeftFirst > 20,
      `re-checks whose first segment ends still inside a start zone: ${seen.notLeftFirst}`,
    );
    t.ok(seen.reused > 30, `re-checks that reused a cached tail: ${seen.reused}`);
  },
);

t.test('the plan tail is swept once per waypoint and profile, not on every re-check', async (t) => {
  // a plan swinging the base back and forth, clear of the profile's zones
  const swing = (i: number) => [i % 2 === 0 ? 1.5 : -1.5, -1.6, 1.4, -1.4, -1.57, 0];
  const plan = Array.from({ length: 30 }, (_, i) => swing(i));
  const at = (measured: number[], remaining: number): JointSweepInput => ({
    dh,
    leverArmsM: levers,
    zones: profile.keepOut.zones,
    spacingM: profile.keepOut.minZoneThicknessM,
    waypointsRad: [measured, ...plan.slice(plan.length - remaining)],
    velocitiesRadS: [],
    stoppingTimeS: 0,
  });
  const tails = new PlanTailSweeps();
  const near = (dq: number) => [1.5 - dq, -1.6, 1.4, -1.4, -1.57, 0];
  for (const dq of [0.3, 0.2, 0.1]) {
    const input = at(near(dq), 29);
    t.strictSame(tails.sweep(profile, input), sweepJointPath(input));
  }
  t.equal(tails.tailsSwept, 1, 'three re-checks before the next waypoint: one tail sweep');
  const whole = sweepJointPath(at(near(0.1), 29));
  const firstSegment = sweepJointPath({
    ...at(near(0.1), 29),
    waypointsRad: at(near(0.1), 29).waypointsRad.slice(0, 2),
  });
  t.ok(
    whole.samples > 20 * firstSegment.samples,
    `the tail is most of the work (${whole.samples} samples; the first segment ${firstSegment.samples})`,
  );
  tails.sweep(profile, at(near(0.05), 28));
  t.equal(tails.tailsSwept, 2, 'a waypoint passed: the shorter tail is swept');
  tails.sweep({ ...profile }, at(near(0.04), 28));
  t.equal(tails.tailsSwept, 3, 'another profile: the tail is swept again');
  tails.sweep(profile, at(near(0.04), 1));
  t.equal(tails.tailsSwept, 3, 'one waypoint left: no tail to sweep');
});
