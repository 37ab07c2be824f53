/**
 * sensor_msgs/PointCloud2 → proximity: the PointField layout is read as declared (offsets, FLOAT32/FLOAT64,
 * is_bigendian, point_step, row_step), and the nearest point inside the sector, the height band and beyond the
 * self-return range is the reading. Every cloud goes through CDR first, as a recording or a subscription yields it.
 */
import { TelemetryFrameSchema, conforms } from '@pentagate/protocol';
import t from 'tap';
import { RosMessageMapper } from '../../src/ros/message-mapping.js';
import { nearestCloudReturn } from '../../src/ros/pointcloud-proximity.js';
import { bindRole } from '../../src/ros/ros-bindings.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { T0, baseProfile } from '../trap/fixtures.js';
import { type CloudLayout, FLOAT64, cloudMsg, header, throughCdr } from './helpers/ros-messages.js';

const base = baseProfile();
const cloudType = ROS_TYPES.pointCloud2;
const binding = bindRole(base, 'proximity360', '/points', undefined, {
  type: cloudType,
  sector: { minAngleRad: -1, maxAngleRad: 1 },
  heightBand: { minZM: 0.05, maxZM: 2 },
  minRangeM: 0.3,
});
const mapper = () => new RosMessageMapper({ robotId: base.robotId });
const map = (msg: unknown, m = mapper(), at = T0) =>
  m.map(binding, throughCdr(cloudType, msg), at, cloudType);

/** Points around the sensor: only (2, 0.5, 1) and (3, 0, 1) are inside sector, band and range. */
const SCENE = [
  [-0.5, 0, 1], // behind: outside the ±1 rad sector
  [1, 0, -0.02], // the floor, below the band
  [1.2, 0.1, 2.4], // the ceiling, above it
  [0.2, 0, 0.5], // the robot's own mast, nearer than minRangeM
  [3, 0, 1],
  [2, 0.5, 1],
];
const nearest = Math.hypot(Math.fround(2), Math.fround(0.5));

t.test(
  'the nearest point inside the sector, the height band and beyond minRangeM is the reading',
  async (t) => {
    t.equal(binding.type, cloudType);
    t.match(binding.target, {
      kind: 'telemetry',
      source: 'proximity-360',
      heightBand: { minZM: 0.05 },
      minRangeM: 0.3,
    });
    const r = map(cloudMsg(T0, SCENE));
    t.match(r, { kind: 'telemetry', frame: { kind: 'proximity', source: 'proximity-360', stampMs: T0 } });
    if (r.kind !== 'telemetry' || r.frame.kind !== 'proximity') return;
    t.ok(conforms(TelemetryFrameSchema, r.frame));
    t.equal(r.frame.nearestHumanM, nearest, 'planar distance hypot(x, y) of the float32 point');
    t.equal(r.frame.sectorRad, Math.atan2(Math.fround(0.5), 2), 'bearing atan2(y, x)');
    const wide = bindRole(base, 'proximity360', '/points', undefined, { type: cloudType });
    t.match(
      mapper().map(wide, throughCdr(cloudType, cloudMsg(T0, SCENE)), T0),
      { kind: 'telemetry', frame: { nearestHumanM: Math.hypot(Math.fround(0.2), 0) } },
      'without sector, band or minimum range, the mast itself is the nearest return: the filters are what exclude it',
    );
  },
);

t.test('every layout a driver may use gives the same reading', async (t) => {
  const layouts: [string, CloudLayout][] = [
    ['float32 little-endian, unorganized', {}],
    ['float32 big-endian', { bigEndian: true }],
    ['float64 little-endian', { datatype: FLOAT64 }],
    ['float64 big-endian', { datatype: FLOAT64, bigEndian: true }],
    ['organized 3 × 2 with 12 bytes of row padding', { width: 3, rowPadding: 12 }],
    ['x, y, z after an intensity field (offsets 4, 8, 12)', { intensityFirst: true, bigEndian: true }],
  ];
  for (const [name, layout] of layouts) {
    const r = map(cloudMsg(T0, SCENE, layout));
    const expected = layout.datatype === FLOAT64 ? Math.hypot(2, 0.5) : nearest;
    t.match(r, { kind: 'telemetry', frame: { nearestHumanM: expected } }, name);
  }
  const bigEndian = cloudMsg(T0, SCENE, { bigEndian: true });
  const misread = map({ ...bigEndian, is_bigendian: false });
  t.not(
    misread.kind === 'telemetry' && misread.frame.kind === 'proximity'
      ? misread.frame.nearestHumanM
      : undefined,
    nearest,
    'the byte order flag is what makes the big-endian cloud read right',
  );
  const plain = cloudMsg(T0, SCENE);
  t.match(
    mapper().map(binding, { ...plain, data: Array.from(plain.data) }, T0),
    { kind: 'telemetry', frame: { nearestHumanM: nearest } },
    'data as a plain array of bytes (rclnodejs without typed arrays)',
  );
});

t.test(
  'NaN, infinite and all-zero points are no measurement; a cloud of only those is skipped',
  async (t) => {
    const m = mapper();
    const organized = [
      [Number.NaN, Number.NaN, Number.NaN],
      [1, Number.POSITIVE_INFINITY, 1],
      [0, 0, 0],
      [4, 0, 1],
    ];
    t.match(map(cloudMsg(T0, organized, { width: 2 }), m), {
      kind: 'telemetry',
      frame: { nearestHumanM: 4 },
    });
    t.match(map(cloudMsg(T0 + 1, organized.slice(0, 3), { width: 3 }), m, T0 + 1), {
      kind: 'skip',
      reason: 'no-valid-return',
      detail: /none of the cloud's 3 points is a measurement/,
    });
    t.match(map(cloudMsg(T0 + 2, []), m, T0 + 2), {
      kind: 'skip',
      reason: 'no-valid-return',
      detail: /no points/,
    });
    t.match(m.skipCounts(), { 'no-valid-return': 2 });
  },
);

t.test(
  "a depth camera's cloud in its optical frame (z forward, x right, y down) is judged in body axes",
  async (t) => {
    // A person 1 m ahead, a little left of the camera, from 0.1 to 1.8 m above it (body axes: x forward, y left,
    // z up), as a depth camera publishes it in its optical frame: x_opt = −y, y_opt = −z, z_opt = x.
    const person: number[][] = [];
    for (let left = 0.1; left <= 0.5; left += 0.1) {
      for (let up = 0.1; up <= 1.8; up += 0.1) person.push([1, left, up]);
    }
    const optical = person.map(([x, y, z]) => [-y!, -z!, x!]);
    const expected = Math.hypot(Math.fround(1), Math.fround(0.1));
    for (const frameId of ['camera_depth_optical_frame', '/camera_color_optical_frame', 'zed_left_optical']) {
      t.match(
        map({ ...cloudMsg(T0, optical), header: header(T0, frameId) }),
        { kind: 'telemetry', frame: { nearestHumanM: expected, sectorRad: Math.atan2(Math.fround(0.1), 1) } },
        `${frameId}: the person ahead is seen in the front sector, at the distance to them`,
      );
    }
    t.match(
      map({ ...cloudMsg(T0, person), header: header(T0, 'camera_link') }),
      { kind: 'telemetry', frame: { nearestHumanM: expected } },
      'the same person in the camera body frame reads the same',
    );
  },
);

t.test('valid points, none inside the sector and band: the sector is clear', async (t) => {
  const r = map(
    cloudMsg(T0, [
      [-2, 0, 1],
      [2, 0, 3],
      [0, 2, 1],
    ]),
  );
  t.match(r, { kind: 'telemetry', frame: { kind: 'proximity', nearestHumanM: null } });
  if (r.kind === 'telemetry') t.notOk('sectorRad' in r.frame);
});

t.test('a layout that does not fit is refused whole, never read out of bounds', async (t) => {
  const good = cloudMsg(T0, SCENE);
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['no z field', { fields: good.fields.slice(0, 2) }, /no "z" field \(fields: x, y\)/],
    [
      'integer coordinates',
      { fields: good.fields.map((f) => (f.name === 'x' ? { ...f, datatype: 3 } : f)) },
      /field x has datatype 3; only FLOAT32 \(7\) and FLOAT64 \(8\)/,
    ],
    [
      'a field past point_step',
      { fields: good.fields.map((f) => (f.name === 'z' ? { ...f, offset: 14 } : f)) },
      /field z at offset 14 \(4 bytes\) does not fit in point_step 16/,
    ],
    [
      'row_step too short',
      { row_step: good.row_step - 1 },
      /row_step 95 is shorter than width 6 × point_step 16/,
    ],
    [
      'data too short',
      { data: good.data.subarray(0, good.data.length - 1) },
      /data holds 95 bytes, 1 rows of 6 points need 96/,
    ],
  ];
  for (const [name, change, detail] of cases) {
    t.match(map({ ...good, ...change }), { kind: 'skip', reason: 'malformed', detail }, name);
  }
});

t.test('cloud stamps: zero is unstamped, days off is another clock, both counted', async (t) => {
  const m = mapper();
  t.match(map({ ...cloudMsg(T0, SCENE), header: { stamp: { sec: 0, nanosec: 0 }, frame_id: 'lidar' } }, m), {
    kind: 'skip',
    reason: 'unstamped',
  });
  t.match(map(cloudMsg(T0 - 2 * 86_400_000, SCENE), m), {
    kind: 'skip',
    reason: 'foreign-clock',
    detail: /2\.0 days before the edge's clock/,
  });
  t.match(m.skipCounts(), { unstamped: 1, 'foreign-clock': 1 });
});

t.test('the aligned float32 fast path and the byte-order-aware path read the same cloud alike', async (t) => {
  // 2 000 points on a seeded spiral, some NaN; the same bytes once 4-byte aligned, once at an odd offset.
  const points: number[][] = [];
  for (let i = 0; i < 2000; i++) {
    const a = i * 2.399963;
    const r = 0.2 + (i % 311) / 37;
    points.push(i % 13 === 0 ? [Number.NaN, 0, 0] : [r * Math.cos(a), r * Math.sin(a), ((i % 29) - 8) / 10]);
  }
  const msg = cloudMsg(T0, points);
  const shifted = new Uint8Array(msg.data.byteLength + 1).subarray(1);
  shifted.set(msg.data);
  t.equal(msg.data.byteOffset % 4, 0);
  t.equal(shifted.byteOffset % 4, 1);
  const input = (data: Uint8Array) => ({
    height: msg.height,
    width: msg.width,
    fields: msg.fields,
    isBigEndian: false,
    pointStep: msg.point_step,
    rowStep: msg.row_step,
    data,
    axes: 'body' as const,
  });
  for (const filter of [
    {},
    { sector: { minAngleRad: 2.5, maxAngleRad: -2.5 } },
    { sector: { minAngleRad: -0.3, maxAngleRad: 0.3 }, heightBand: { minZM: 0, maxZM: 1 }, minRangeM: 1 },
  ]) {
    const fast = nearestCloudReturn(input(msg.data), filter);
    t.same(nearestCloudReturn(input(shifted), filter), fast, JSON.stringify(filter));
    // An independent oracle: the same rule written plainly over the points.
    const kept = points.filter(([x, y, z]) => {
      if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) return false;
      const f = filter as {
        sector?: { minAngleRad: number; maxAngleRad: number };
        heightBand?: { minZM: number; maxZM: number };
        minRangeM?: number;
      };
      const [fx, fy, fz] = [Math.fround(x!), Math.fround(y!), Math.fround(z!)];
      if (f.heightBand && (fz < f.heightBand.minZM || fz > f.heightBand.maxZM)) return false;
      if (Math.hypot(fx, fy) < (f.minRangeM ?? 0)) return false;
      if (!f.sector) return true;
      const b = Math.atan2(fy, fx);
      const { minAngleRad: lo, maxAngleRad: hi } = f.sector;
      return lo <= hi ? b >= lo && b <= hi : b >= lo || b <= hi;
    });
    const oracle = Math.min(...kept.map(([x, y]) => Math.hypot(Math.fround(x!), Math.fround(y!))));
    t.ok(kept.length > 0, `the filter keeps ${kept.length} points`);
    t.ok(fast.status === 'detected' && Math.abs(fast.distanceM - oracle) < 1e-12, `nearest ${oracle} m`);
  }
});
