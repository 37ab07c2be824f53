/**
 * A mobile base is a ground base: it drives in the floor plane and turns about its z axis (REP 103: x forward,
 * y left, z up). A geometry_msgs/Twist asking it to climb (linear.z), roll (angular.x) or pitch (angular.y)
 * describes a motion it cannot make, so the path the gates judged is not the one it would drive: vetoed,
 * naming the field, never signed.
 */
import t from 'tap';
import { T0, baseIntent, baseProfile, feedHealthy, makeGate } from '../trap/fixtures.js';

const STILL = { x: 0, y: 0, z: 0 };

for (const [field, over] of [
  ['linear.z', { linearMps: { x: 0.5, y: 0, z: 0.2 } }],
  ['angular.x', { angularRadS: { ...STILL, x: 0.1 } }],
  ['angular.y', { angularRadS: { ...STILL, y: -0.1 } }],
] as const) {
  t.test(`a base twist with ${field} set is vetoed by INVARIANT, naming the field`, async (t) => {
    const { gate, profile } = makeGate(baseProfile());
    feedHealthy(gate, profile);
    const r = gate.trapAndSign(baseIntent(over), T0);
    t.equal(r.kind, 'veto');
    const invariant = r.verdict.gates.find((g) => g.vertex === 'INVARIANT');
    t.match(invariant?.violations, [
      new RegExp(`^INVARIANT\\.UNSUPPORTED_AXIS: ${field.replace('.', '\\.')} -?0\\.\\d+ .*ground base`),
    ]);
  });
}

t.test('a planar twist (negative zero out of the plane included) is still signed', async (t) => {
  const { gate, profile } = makeGate(baseProfile());
  feedHealthy(gate, profile);
  const r = gate.trapAndSign(
    baseIntent({ linearMps: { x: 0.5, y: 0.1, z: -0 }, angularRadS: { x: -0, y: 0, z: 0.2 } }),
    T0,
  );
  t.equal(r.kind, 'signed');
});
