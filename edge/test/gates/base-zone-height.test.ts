/**
 * A ground base stands on the floor whatever height its localizer reports: Autoware's maps carry elevations
 * (a map-frame pose tens of metres up), 3-D lidar SLAM drifts in z, a localizer's origin may sit below the floor.
 * The base occupies the column over its footprint, so a keep-out zone is judged in the plane: a pose 40 m up
 * heading into a shelf is vetoed as one at 0 m is, and the measured checks of a replay see it in the zone.
 */
import type { TelemetryFrame } from '@pentagate/protocol';
import t from 'tap';
import { MeasuredChecks } from '../../src/mcap/measured-checks.js';
import { T0, baseIntent, baseProfile, feedHealthy, makeGate, pose } from '../trap/fixtures.js';

/** The base at (5, 1.5), facing +y towards shelf-row-a (y from 2 to 3, z from 0 to 2.5), `zM` up. */
function poseAt(robotId: string, zM: number): TelemetryFrame {
  const f = pose(robotId, T0 + 1, 5, 1.5, Math.PI / 2);
  if (f.kind !== 'pose') throw new Error('not a pose');
  return { ...f, positionM: { ...f.positionM, z: zM } };
}

for (const zM of [0, 40, -12]) {
  t.test(`a base whose pose is ${zM} m up driving into a shelf is vetoed`, async (t) => {
    const { gate, profile } = makeGate(baseProfile());
    feedHealthy(gate, profile);
    t.match(gate.ingestTelemetry(poseAt(profile.robotId, zM), T0 + 1), { accepted: true });
    const r = gate.trapAndSign(baseIntent({ linearMps: { x: 0.5, y: 0, z: 0 }, durationMs: 2000 }), T0 + 2);
    t.equal(r.kind, 'veto');
    const invariant = r.verdict.gates.find((g) => g.vertex === 'INVARIANT');
    t.match(invariant?.violations, [/^INVARIANT\.KEEP_OUT_(PATH|STOP): .*shelf-row-a/]);
  });
}

t.test('the measured checks put a base 40 m up beside a shelf in the zone', async (t) => {
  const checks = new MeasuredChecks(baseProfile());
  const f = poseAt('amr-07', 40);
  if (f.kind !== 'pose') throw new Error('not a pose');
  checks.check({ ...f, positionM: { x: 5, y: 1.8, z: 40 } }, T0);
  t.match(checks.summary.breaches, [{ check: 'keep-out', subject: 'shelf-row-a' }]);
});
