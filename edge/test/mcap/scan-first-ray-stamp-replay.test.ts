/**
 * A 10 Hz LaserScan is stamped at its first ray (sensor_msgs/LaserScan: "the acquisition time of the first ray")
 * and published a sweep later: logged 110 ms after its stamp with scan_time 0.1 s. Aged from the first ray, a
 * command 95 ms after a scan found it 205 ms old against `profile init`'s 200 ms and was vetoed on healthy timing;
 * aged from its last ray (stamp + scan_time) it is 105 ms old and the commands are signed. A scan logged 400 ms
 * after its stamp is still stale, and still vetoes.
 */
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { T0, baseProfileWithIntent, makeGate } from '../trap/fixtures.js';
import { header, odometryMsg, twistStampedMsg } from '../ros/helpers/ros-messages.js';
import { batteryMsg, firmwareMsg, openBaseBag } from '../transports/helpers/recordings.js';

const RAYS = 360;

function sweep(stampMs: number, scanTimeS: number, timeIncrementS: number) {
  return {
    header: header(stampMs),
    angle_min: -Math.PI,
    angle_max: Math.PI,
    angle_increment: (2 * Math.PI) / RAYS,
    time_increment: timeIncrementS,
    scan_time: scanTimeS,
    range_min: 0.1,
    range_max: 30,
    ranges: new Array<number>(RAYS).fill(Number.POSITIVE_INFINITY),
    intensities: [],
  };
}

/** 1 s: scans every 100 ms logged `latencyMs` after their stamp; a command 95 ms after each of the first 9 scans. */
async function replayScans(t: Test, latencyMs: number, scanTimeS: number, timeIncrementS: number) {
  const path = join(t.testdir(), 'scans.mcap');
  const bag = await openBaseBag(path, { topic: '/scan', rosType: ROS_TYPES.laserScan });
  for (let dt = 0; dt <= 1000; dt += 5) {
    const at = T0 + dt;
    if (dt % 20 === 0) await bag.write('/odom', odometryMsg(at - 2, { x: 5, y: 0 }), at);
    if (dt % 100 === 0) {
      await bag.write('/scan', sweep(at - latencyMs, scanTimeS, timeIncrementS), at);
      await bag.write('/battery_state', { ...batteryMsg(at), voltage: 24 }, at);
    }
    if (dt % 500 === 0) await bag.write('/controller/firmware', firmwareMsg(), at);
    if (dt % 100 === 95 && dt < 900) await bag.write('/cmd_vel', twistStampedMsg(at, 0.3, 0), at);
  }
  await bag.finish();
  const profile = baseProfileWithIntent('/cmd_vel');
  const scanSource = profile.sources.find((s) => s.kind === 'proximity');
  if (!scanSource) throw new Error('the mobile-base profile has a proximity source');
  scanSource.maxAgeMs = 200; // what `profile init` suggests for a LaserScan
  const { gate } = makeGate(profile);
  const s = await replayRecording({ bagPath: path, profile, gate });
  t.equal(s.error, undefined);
  t.equal(s.intents, 9);
  return s;
}

t.test('a scan is aged from its last ray (stamp + scan_time): healthy 10 Hz timing is signed', async (t) => {
  const s = await replayScans(t, 110, 0.1, 0);
  t.same(s.skipped.byReason, {});
  t.equal(s.verdicts.byOutcome.signed, 9);
  t.equal(s.firstVeto, null);
});

t.test('with scan_time 0, the last ray is time_increment · (rays − 1) after the stamp', async (t) => {
  const s = await replayScans(t, 110, 0, 0.1 / RAYS);
  t.equal(s.verdicts.byOutcome.signed, 9);
});

t.test('a scan logged 400 ms after its first ray is stale even from its last ray: vetoed', async (t) => {
  const s = await replayScans(t, 400, 0.1, 0);
  t.equal(s.commands.motion, 0);
  t.match(s.skipped.examples['stale-stamp'], /^\/scan: stamped 300 ms ago, source allows 200 ms/);
  t.match(s.firstVeto, { violation: /^RISK\.(MISSING|STALE)_DATA/ });
});
