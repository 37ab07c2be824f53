/**
 * Random keep-out sweeps for the property tests: the UR5e arm of the test profiles, zones of every shape
 * around it, and joint vectors over the whole joint range.
 */
import { leverArmsM, loadRobotProfile } from '@pentagate/edge';
import type { KeepOutZone } from '@pentagate/protocol';
import fc from 'fast-check';
import { profilesDir } from '../trap/fixtures.js';
import { zoneOfEachShape } from './zone-shapes.js';

export const profile = loadRobotProfile(`${profilesDir}ur5e-arm.yaml`);
export const dh = profile.joints.map((j) => j.dh);
export const levers = leverArmsM(dh);
const coord = fc.double({ min: -1.2, max: 1.2, noNaN: true });
const size = fc.double({ min: 0.02, max: 0.6, noNaN: true });
export const zone: fc.Arbitrary<KeepOutZone> = zoneOfEachShape(coord, size, (x, y, a) => [
  { x, y },
  { x: x + a, y },
  { x: x + a / 2, y: y + a },
]);
export const joints = fc.array(fc.double({ min: -3.2, max: 3.2, noNaN: true }), {
  minLength: 6,
  maxLength: 6,
});
