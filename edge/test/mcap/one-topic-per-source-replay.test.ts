/**
 * A base with a front and a rear scanner, replayed with a profile that has one proximity source: both scanners'
 * topics bind to it by the fallbacks (`/front/scan`, `/rear/scan`: the only source of their kind). The gates keep
 * the latest frame of a source, so the front scanner's clear scan 1 ms after the rear one's person hid that person,
 * and a command 1 ms later was signed. One topic feeds a source (src/mcap/source-feeds.ts): two of equal standing
 * leave the source in doubt and the gates fail closed; the topic the profile names for the source wins.
 */
import { join } from 'node:path';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { renderReplaySummary } from '../../src/mcap/replay-summary.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { T0, baseProfileWithIntent, makeGate } from '../trap/fixtures.js';
import { odometryMsg, twistStampedMsg } from '../ros/helpers/ros-messages.js';
import { batteryMsg, firmwareMsg, openBag, scanMsg } from '../transports/helpers/recordings.js';

/** The profile's own topic for its proximity source (edge/profiles/mobile-base.yaml). */
const NAMED_SCAN = '/scan';
const COMMAND_AT_MS = 300;

/**
 * 600 ms at 50 Hz: `rear` sees a person at 0.5 m throughout, `front` sees nobody 1 ms later; one command 2 ms
 * after the rear scan at 300 ms. `rear` is written first (its channel is the first to claim the source).
 */
async function writeBase(path: string, rear: string, front: string) {
  const w = await openBag(path);
  for (const [topic, type] of [
    ['/odom', ROS_TYPES.odometry],
    [rear, ROS_TYPES.laserScan],
    [front, ROS_TYPES.laserScan],
    ['/battery_state', ROS_TYPES.battery],
    ['/controller/firmware', ROS_TYPES.string],
    ['/cmd_vel', ROS_TYPES.twistStamped],
  ] as const) {
    await w.rosChannel(topic, type);
  }
  for (let dt = 0; dt <= 600; dt += 20) {
    const at = T0 + dt;
    await w.write('/odom', odometryMsg(at - 2, { x: 5, y: 0 }), at);
    await w.write(rear, scanMsg(at - 1, 0.5), at);
    await w.write(front, scanMsg(at, null), at + 1);
    if (dt % 100 === 0) await w.write('/battery_state', { ...batteryMsg(at), voltage: 24 }, at);
    if (dt % 500 === 0) await w.write('/controller/firmware', firmwareMsg(), at);
    if (dt === COMMAND_AT_MS) await w.write('/cmd_vel', twistStampedMsg(at + 2, 0.3, 0), at + 2);
  }
  await w.finish();
}

async function replay(path: string) {
  const { gate, profile } = makeGate(baseProfileWithIntent('/cmd_vel'));
  return replayRecording({ bagPath: path, profile, gate });
}

const boundTo = (s: Awaited<ReturnType<typeof replay>>) =>
  Object.fromEntries(s.messages.byTopic.map((x) => [x.topic, x.boundTo]));

t.test('two scanners on the only proximity source: neither is read, the command is vetoed', async (t) => {
  const path = join(t.testdir(), 'two-scanners.mcap');
  await writeBase(path, '/rear/scan', '/front/scan');
  const s = await replay(path);
  t.equal(s.error, undefined);
  t.equal(s.intents, 1);
  t.equal(s.commands.motion, 0, 'not signed: the rear scanner shows a person at 0.5 m');
  t.match(s.firstVeto, {
    outcome: 'vetoed',
    violation: /^RISK\.STALE_DATA: proximity\/proximity-360 seq 1 is \d+ ms old/,
  });
  const doubt = /\/front\/scan and \/rear\/scan would both feed source proximity-360: .*neither is read/;
  t.match(boundTo(s), { '/rear/scan': doubt, '/front/scan': doubt, '/odom': 'telemetry:pose' });
  t.equal(
    s.skipped.byReason['unbound-topic'],
    31 + 30,
    'every scan but the rear one that claimed the source',
  );
  t.match(s.warnings, [/^\/front\/scan \[sensor_msgs\/msg\/LaserScan\] is not read: .*fail closed/]);
  t.match(renderReplaySummary(s), /WARNING: \/front\/scan .* is not read/);
});

t.test('the topic the profile names feeds the source; another scanner is not read', async (t) => {
  const path = join(t.testdir(), 'named-scan.mcap');
  await writeBase(path, '/rear/scan', NAMED_SCAN);
  const s = await replay(path);
  t.equal(s.error, undefined);
  t.match(boundTo(s), {
    [NAMED_SCAN]: 'telemetry:proximity-360',
    '/rear/scan':
      /^unbound: \/rear\/scan fed source proximity-360 until \/scan, the topic the profile's topics\.ros2 names for it, came/,
  });
  t.equal(s.skipped.byReason['unbound-topic'], 30, 'the rear scans after the first, which fed the source');
  t.equal(
    s.commands.motion,
    1,
    "judged on the profile's scanner, which sees nobody (as the live edge would)",
  );
  t.match(s.warnings, [/^\/rear\/scan fed source proximity-360 until \/scan/]);
});

t.test('a scanner after the named one is not read, with the reason', async (t) => {
  const path = join(t.testdir(), 'named-first.mcap');
  await writeBase(path, NAMED_SCAN, '/front/scan');
  const s = await replay(path);
  t.equal(s.error, undefined);
  t.match(boundTo(s), {
    [NAMED_SCAN]: 'telemetry:proximity-360',
    '/front/scan':
      /^unbound: \/front\/scan would feed source proximity-360, which \/scan, the topic the profile's topics\.ros2 names for it, feeds/,
  });
  t.equal(s.commands.motion, 0, 'the named scanner sees the person at 0.5 m');
  t.match(s.firstVeto, { violation: /^RISK\.HUMAN_IN_RADIUS: human at 0\.50 m/ });
});
