/**
 * Range messages whose limits are not metres and radians are skipped as malformed (scan-plausibility.ts), and a
 * point cloud with two fields of one coordinate name is refused: each of these was read as a clear scene beside
 * a person at 0.5 m (outside review of `edge replay` on crafted recordings). The source then goes stale, and
 * RISK fails closed.
 */
import t from 'tap';
import { RosMessageMapper } from '../../src/ros/message-mapping.js';
import { bindRole } from '../../src/ros/ros-bindings.js';
import { MAX_PLAUSIBLE_RANGE_M } from '../../src/ros/scan-plausibility.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { T0, armProfile, baseProfile } from '../trap/fixtures.js';
import { cloudMsg, throughCdr } from './helpers/ros-messages.js';

const arm = armProfile();
const header = { stamp: { sec: Math.floor(T0 / 1000), nanosec: (T0 % 1000) * 1e6 }, frame_id: 'base_link' };
const mapper = () => new RosMessageMapper({ robotId: arm.robotId });
const front = bindRole(arm, 'proximityFront', '/scan', undefined, {
  sector: { minAngleRad: -1.2, maxAngleRad: 1.2 },
});

/** 360 beams, clear at 5 m (in the message's unit) except a person at 0.5 m straight ahead. */
function scan(unit: { m: number; angle: number }, over: Record<string, unknown> = {}) {
  const beams = 360;
  const ranges = Array.from({ length: beams }, (_, i) => (i === 180 ? 0.5 : 5) * unit.m);
  return {
    header,
    angle_min: -Math.PI * unit.angle,
    angle_max: Math.PI * unit.angle,
    angle_increment: ((2 * Math.PI) / beams) * unit.angle,
    time_increment: 0,
    scan_time: 0.1,
    range_min: 0.05 * unit.m,
    range_max: 12 * unit.m,
    ranges: Float32Array.from(ranges),
    intensities: [],
    ...over,
  };
}

t.test('a scan in metres and radians reads the person ahead', async (t) => {
  const r = mapper().map(front, scan({ m: 1, angle: 1 }), T0);
  t.match(r, { kind: 'telemetry', frame: { nearestHumanM: Math.fround(0.5) } });
});

t.test('a scan in millimetres is skipped, not read as a person 500 m away', async (t) => {
  // range_min 0, as many drivers write it: the blind-zone rule has nothing to catch
  const r = mapper().map(front, scan({ m: 1000, angle: 1 }, { range_min: 0 }), T0);
  t.match(r, { kind: 'skip', reason: 'malformed' });
  if (r.kind === 'skip') t.match(r.detail, /range_max 12000 m is beyond any range sensor's .*millimetres/);
  const atLimit = mapper().map(front, scan({ m: 1, angle: 1 }, { range_max: MAX_PLAUSIBLE_RANGE_M }), T0);
  t.equal(atLimit.kind, 'telemetry', `range_max ${MAX_PLAUSIBLE_RANGE_M} m is still a sensor's`);
});

t.test('a scan in degrees is skipped, not wrapped out of the sector', async (t) => {
  const r = mapper().map(front, scan({ m: 1, angle: 180 / Math.PI }), T0);
  t.match(r, { kind: 'skip', reason: 'malformed' });
  if (r.kind === 'skip') t.match(r.detail, /more than a full turn: are its angles in degrees/);
  const offset = mapper().map(front, scan({ m: 1, angle: 1 }, { angle_min: -180 }), T0);
  t.match(offset, { kind: 'skip', reason: 'malformed' }, 'angle_min beyond a full turn');
  const full = scan({ m: 1, angle: 1 }, { angle_min: 0, angle_increment: (2 * Math.PI) / 359 });
  t.equal(mapper().map(front, full, T0).kind, 'telemetry', 'a full turn that repeats its first bearing');
});

t.test('a Range in millimetres is skipped', async (t) => {
  const b = bindRole(arm, 'proximityRear', '/range', undefined, { type: 'sensor_msgs/msg/Range' });
  const msg = { header, radiation_type: 1, field_of_view: 0.3, min_range: 0, max_range: 4000, range: 500 };
  t.match(mapper().map(b, msg, T0), { kind: 'skip', reason: 'malformed' });
});

t.test('a point cloud with two fields named x is refused', async (t) => {
  const base = baseProfile();
  const type = ROS_TYPES.pointCloud2;
  const binding = bindRole(base, 'proximity360', '/points', undefined, { type });
  const cloud = cloudMsg(T0, [[0.5, 0, 1]], { intensityFirst: true });
  // the first `x` points at the intensity field, the real x follows
  const forged = { ...cloud, fields: [{ ...cloud.fields[0]!, name: 'x' }, ...cloud.fields.slice(1)] };
  const r = new RosMessageMapper({ robotId: base.robotId }).map(binding, throughCdr(type, forged), T0, type);
  t.match(r, { kind: 'skip', reason: 'malformed' });
  if (r.kind === 'skip') t.match(r.detail, /2 fields named "x": the layout is ambiguous/);
  const honest = new RosMessageMapper({ robotId: base.robotId }).map(
    binding,
    throughCdr(type, cloud),
    T0,
    type,
  );
  t.equal(honest.kind, 'telemetry', 'the same cloud with one x is read');
});
