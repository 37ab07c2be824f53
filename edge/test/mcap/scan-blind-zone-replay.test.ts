/**
 * An aisle scanner that cannot see close in: its LaserScan declares range_min 1.0 m against the mobile base's
 * 1.5 m operating radius, and a person stands 0.5 m ahead. REP 117 lets the driver write that person as a finite
 * value below range_min or, as pointcloud_to_laserscan does, as +Inf, the value that also means "nothing there".
 * Either way no move may be signed: a scan blind that far out is skipped (`blind-zone`), so the proximity source
 * is missing and RISK fails closed. The same scene with a scanner's usual
 * range_min (0.05 m) and an empty aisle signs every command, so the refusals are the blind zone's.
 */
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { renderReplaySummary } from '../../src/mcap/replay-summary.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { T0, baseProfileWithIntent, makeGate } from '../trap/fixtures.js';
import { header, odometryMsg, twistStampedMsg } from '../ros/helpers/ros-messages.js';
import { batteryMsg, firmwareMsg, openBaseBag } from '../transports/helpers/recordings.js';

const BEAMS = 37;

/** A 10 Hz-style scan over ±90°: `ahead` on the middle beam, +Inf (no return) on every other. */
function aisleScan(ms: number, rangeMinM: number, ahead: number) {
  const ranges = new Array<number>(BEAMS).fill(Number.POSITIVE_INFINITY);
  ranges[(BEAMS - 1) / 2] = ahead;
  return {
    header: header(ms),
    angle_min: -Math.PI / 2,
    angle_max: Math.PI / 2,
    angle_increment: Math.PI / (BEAMS - 1),
    time_increment: 0,
    scan_time: 0,
    range_min: rangeMinM,
    range_max: 30,
    ranges,
    intensities: [],
  };
}

/** 1 s at 50 Hz with a command every 100 ms from 100 ms on (10 commands). */
async function writeAisle(path: string, rangeMinM: number, ahead: number): Promise<void> {
  const bag = await openBaseBag(path, { topic: '/scan', rosType: ROS_TYPES.laserScan });
  for (let dt = 0; dt <= 1000; dt += 20) {
    const at = T0 + dt;
    await bag.write('/odom', odometryMsg(at - 2, { x: 5, y: 0 }), at);
    await bag.write('/scan', aisleScan(at - 1, rangeMinM, ahead), at);
    if (dt % 100 === 0) await bag.write('/battery_state', { ...batteryMsg(at), voltage: 24 }, at);
    if (dt % 500 === 0) await bag.write('/controller/firmware', firmwareMsg(), at);
    if (dt % 100 === 0 && dt > 0) await bag.write('/cmd_vel', twistStampedMsg(at, 0.3, 0), at + 1);
  }
  await bag.finish();
}

async function replayAisle(t: Test, rangeMinM: number, ahead: number) {
  const path = join(t.testdir(), 'aisle.mcap');
  await writeAisle(path, rangeMinM, ahead);
  const { gate, profile } = makeGate(baseProfileWithIntent('/cmd_vel'));
  t.equal(profile.risk.operatingRadiusM, 1.5);
  const s = await replayRecording({ bagPath: path, profile, gate });
  t.equal(s.error, undefined);
  t.equal(s.intents, 10);
  return s;
}

t.test('a person 0.5 m ahead written below range_min 1.0 m: nothing signed', async (t) => {
  const s = await replayAisle(t, 1.0, 0.5);
  t.equal(s.commands.motion, 0);
  t.equal(s.verdicts.byOutcome.vetoed, 10);
  t.match(s.skipped.byReason, { 'blind-zone': 51 }, 'every scan: the scanner is blind to 1.0 m');
  t.match(s.firstVeto, {
    outcome: 'vetoed',
    violation: /^RISK\.MISSING_DATA: no proximity frame from proximity-360/,
  });
});

t.test('a person 0.5 m ahead written as +Inf by a scan blind to 1.0 m: nothing signed', async (t) => {
  const s = await replayAisle(t, 1.0, Number.POSITIVE_INFINITY);
  t.equal(s.commands.motion, 0);
  t.equal(s.verdicts.byOutcome.vetoed, 10);
  t.same(s.skipped.byReason, { 'blind-zone': 51 });
  t.match(
    s.skipped.examples['blind-zone'],
    /^\/scan: sensor_msgs\/msg\/LaserScan\.range_min 1 m: the sensor cannot see a person nearer than that/,
  );
  t.match(renderReplaySummary(s), /51\s+blind-zone \(e\.g\. \/scan: .*range_min 1 m/);
});

t.test(
  'below a housing-sized range_min a return is no measurement (REP 117), as drivers write "none" there',
  async (t) => {
    // 0.0 is the TurtleBot3 LDS-01 driver's "no return"; a few millimetres urg_node's error codes.
    for (const written of [0, 0.003]) {
      const s = await replayAisle(t, 0.05, written);
      t.same(s.skipped.byReason, {}, `${written}`);
      t.equal(s.commands.motion, 10, `${written}: the move is signed`);
    }
  },
);

t.test('the usual range_min (0.05 m) with the aisle clear signs every command', async (t) => {
  const s = await replayAisle(t, 0.05, Number.POSITIVE_INFINITY);
  t.same(s.skipped.byReason, {});
  t.equal(s.commands.motion, 10);
  t.equal(s.firstVeto, null);
});
