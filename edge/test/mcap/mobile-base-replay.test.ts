/**
 * A mobile base's recording, as rosbag2 writes it for a Jazzy robot: wheel odometry (nav_msgs/Odometry), a 3-D
 * lidar (sensor_msgs/PointCloud2), stamped velocity commands (geometry_msgs/TwistStamped), an IMU, battery and
 * firmware. Replayed through the gates from MCAP and from sqlite3 without `message_definitions` (the bundled
 * standard definitions decode it): the commands are judged on the odometry pose and the cloud's nearest return,
 * and every message not fed is counted by its reason — a GPS-stamped burst days behind, an unstamped command, the
 * IMU no gate reads.
 */
import { join } from 'node:path';
import t from 'tap';
import { McapFileSink } from '../../src/mcap/mcap-file-sink.js';
import { replayRecording } from '../../src/mcap/replay.js';
import { renderReplaySummary } from '../../src/mcap/replay-summary.js';
import { RosbagWriter } from '../../src/mcap/rosbag-writer.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { T0, baseProfileWithIntent, makeGate } from '../trap/fixtures.js';
import { cloudMsg, header, imuMsg, odometryMsg, twistStampedMsg } from '../ros/helpers/ros-messages.js';
import { Db3Writer } from '../transports/helpers/db3-writer.js';
import { type SceneWriter, batteryMsg, firmwareMsg } from '../transports/helpers/recordings.js';

const TOPICS = {
  odom: ['/odom', ROS_TYPES.odometry],
  points: ['/points', ROS_TYPES.pointCloud2],
  cmd: ['/cmd_vel', ROS_TYPES.twistStamped],
  imu: ['/imu/data', ROS_TYPES.imu],
  battery: ['/battery_state', ROS_TYPES.battery],
  firmware: ['/controller/firmware', ROS_TYPES.string],
} as const;

/** The cloud's role is its topic's last segment; the lidar sits 0.4 m up, so the floor is z < -0.3. */
const OVERRIDES = { points: { heightBand: { minZM: -0.3, maxZM: 1.8 } } };

const GPS_BURST = { fromMs: 400, toMs: 500 };
const HUMAN_FROM_MS = 600;
/** Odometry measures 1.6 m/s (the profile allows 1.2) from 900 ms to the end. */
const SPEEDING = { fromMs: 900, toMs: 1001 };

/**
 * 1 s at 50 Hz: a person walks in at 600 ms; commands at 200 ms (clear), 300 ms (unstamped), 800 ms (person);
 * the base speeds up beyond its limit at 900 ms.
 */
async function writeScene(w: SceneWriter): Promise<void> {
  for (const [topic, type] of Object.values(TOPICS)) await w.rosChannel(topic, type);
  for (let dt = 0; dt <= 1000; dt += 20) {
    const at = T0 + dt;
    const gps = dt >= GPS_BURST.fromMs && dt < GPS_BURST.toMs;
    const vx = dt >= SPEEDING.fromMs && dt < SPEEDING.toMs ? 1.6 : 0.8;
    await w.write(
      '/odom',
      odometryMsg(gps ? at - 5 * 86_400_000 : at - 2, { x: 5 + dt / 1000, y: 0 }, 0, { vx }),
      at,
    );
    const person = dt >= HUMAN_FROM_MS ? [[1, 0.2, 0.5]] : [];
    await w.write('/points', cloudMsg(at - 1, [[4, -1, 0.5], [3, 2, -0.38], ...person]), at);
    await w.write('/imu/data', imuMsg(at - 1), at);
    if (dt % 100 === 0) await w.write('/battery_state', { ...batteryMsg(at), voltage: 24 }, at);
    if (dt % 500 === 0) await w.write('/controller/firmware', firmwareMsg(), at);
    if (dt === 200 || dt === 800) await w.write('/cmd_vel', twistStampedMsg(at, 0.5, 0), at + 1);
    if (dt === 300) {
      await w.write('/cmd_vel', { ...twistStampedMsg(at, 0.5, 0), header: header(0) }, at + 1);
    }
  }
  await w.finish();
}

async function mcapWriter(path: string): Promise<SceneWriter> {
  const sink = await McapFileSink.create(path);
  const bag = await RosbagWriter.open({ writable: sink });
  return {
    rosChannel: (topic, type) => bag.rosChannel(topic, type),
    write: (topic, message, logTimeMs) => bag.write(topic, message, logTimeMs),
    finish: async () => {
      await bag.end();
      await sink.close();
    },
  };
}

async function replay(path: string) {
  const { gate, profile } = makeGate(baseProfileWithIntent('/cmd_vel'));
  return replayRecording({ bagPath: path, profile, gate, overrides: OVERRIDES });
}

for (const [storage, file, open] of [
  ['MCAP', 'base.mcap', mcapWriter],
  [
    'sqlite3 schema 3 (no message_definitions: bundled definitions)',
    'base_0.db3',
    async (p: string) => new Db3Writer(p, { schemaVersion: 3 }),
  ],
] as const) {
  t.test(`${storage}: odometry, point cloud and TwistStamped judged; skips counted by reason`, async (t) => {
    const path = join(t.testdir(), file);
    await writeScene(await open(path));
    const s = await replay(path);
    t.equal(s.error, undefined);
    const bound = Object.fromEntries(s.messages.byTopic.map((x) => [x.topic, x.boundTo]));
    t.match(bound, {
      '/odom': 'telemetry:pose',
      '/points': 'telemetry:proximity-360',
      '/cmd_vel': 'intent',
      '/imu/data': /^observed, not gated: no gate decides on IMU data/,
    });
    t.same(
      s.skipped.byReason,
      { 'foreign-clock': 5, unstamped: 1, 'not-gated': 51 },
      'five odometry messages with GPS stamps, one unstamped command, every IMU message',
    );
    t.match(s.skipped.examples['foreign-clock'], /^\/odom: stamped .*5\.0 days before the edge's clock/);
    t.match(s.skipped.examples.unstamped, /^\/cmd_vel: header\.stamp is zero/);
    t.equal(s.telemetry.accepted, 46 + 51 + 11 + 3, 'odometry (51 − 5), clouds, battery, firmware');
    t.same(s.telemetry.rejected, {});
    t.equal(s.intents, 2);
    t.equal(s.verdicts.byOutcome.signed, 1, 'the command at 200 ms, with the aisle clear');
    t.equal(s.commands.motion, 1);
    // The motion signed at 200 ms may still run until validForMs past its plan (the controller may take the
    // command late), so it is watched through the GPS burst, where the pose goes stale: a STOP.
    t.match(s.firstVeto, {
      outcome: 'stopped',
      offsetMs: 480,
      violation: /^INVARIANT\.STALE_DATA: pose\/pose seq \d+ is \d+ ms old > maxAgeMs 100/,
    });
    t.match(s.firstFailureByVertex.RISK, {
      outcome: 'vetoed',
      offsetMs: 801,
      violation: /^RISK\.HUMAN_IN_RADIUS: human at 1\.02 m/,
    });
    const proximity = s.measured.breaches.filter((b) => b.check === 'proximity');
    t.match(proximity, [
      { atMs: T0 + HUMAN_FROM_MS, subject: 'proximity-360', value: Math.hypot(1, Math.fround(0.2)) },
    ]);
    t.match(
      s.measured.breaches.filter((b) => b.check === 'base-speed'),
      [{ atMs: T0 + SPEEDING.fromMs, subject: 'linear', value: 1.6, limit: 1.2 }],
      'the measured speed from Odometry, once, when it begins',
    );
    t.equal(s.measured.framesInBreach['base-speed'], 6, '900 to 1000 ms at 50 Hz');
    const text = renderReplaySummary(s);
    t.match(text, /\+0\.900 s\s+base-speed\s+base moving at 1\.60 m\/s > limit 1\.2 m\/s \(pose\)/);
    t.match(text, /\s51\s+not-gated \(e\.g\. \/imu\/data: sensor_msgs\/msg\/Imu read/);
    t.match(text, /\s5\s+foreign-clock \(e\.g\. \/odom: stamped/);
  });
}
