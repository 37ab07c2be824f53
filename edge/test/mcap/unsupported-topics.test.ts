/**
 * Topics no gate reads are skipped by their type, one line each naming the topic, the type, why and what to do —
 * never decoded, so their schemas cannot fail. rosbag2's own recording with service events
 * (../shared/vectors/rosbag2, rosbag2_tests/resources/{mcap,sqlite3}/bag_with_topics_and_service_events:
 * `/test_service{1,2}/_service_event` of test_msgs/srv/BasicTypes_Event, schema encoding ros2msg with a `---`
 * separator, and /test_topic{1,2} of test_msgs/msg/Strings), and an arm cell with /tf, an image and an action.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { replayRecording } from '../../src/mcap/replay.js';
import { renderReplaySummary } from '../../src/mcap/replay-summary.js';
import { T0, makeGate } from '../trap/fixtures.js';
import { TOPICS, jointStateMsg, openBag, openRawMcap } from '../transports/helpers/recordings.js';

const VECTORS = join(dirname(fileURLToPath(import.meta.url)), '../../../../shared/vectors/rosbag2');

for (const storage of ['mcap', 'sqlite3']) {
  t.test(`rosbag2 ${storage} with service events: skipped as service events, not bad schemas`, async (t) => {
    const bag = join(VECTORS, `rosbag2_tests/resources/${storage}/bag_with_topics_and_service_events`);
    const s = await replayRecording({ bagPath: bag, ...makeGate() });
    t.equal(s.error, undefined);
    t.same(s.skipped.byReason, { 'unsupported-type': 10 }, 'no bad-schema, no missing-schema');
    t.same(s.warnings, []);
    const byTopic = Object.fromEntries(s.messages.byTopic.map((c) => [c.topic, c]));
    for (const service of ['/test_service1/_service_event', '/test_service2/_service_event']) {
      t.match(byTopic[service], {
        type: 'test_msgs/srv/BasicTypes_Event',
        messages: 4,
        boundTo:
          'skipped: a service event (a recorded service call); no gate reads service calls; nothing to do',
      });
    }
    t.match(byTopic['/test_topic1'], {
      type: 'test_msgs/msg/Strings',
      boundTo:
        /^skipped: no gate reads test_msgs\/msg\/Strings; nothing to do, unless it carries joint states, proximity, pose, battery or intents: then publish them as a type the gates read/,
    });
    const text = renderReplaySummary(s);
    // one line per topic: count, topic, type, why, what to do
    t.match(
      text,
      /\n {10}4 {2}\/test_service1\/_service_event {2}\[test_msgs\/srv\/BasicTypes_Event\] → skipped: a service event \(a recorded service call\); no gate reads service calls; nothing to do\n/,
    );
    t.match(
      text,
      /\n {10}1 {2}\/test_topic2 {2}\[test_msgs\/msg\/Strings\] → skipped: no gate reads test_msgs\/msg\/Strings; nothing to do, unless .*\n/,
    );
    t.notMatch(
      text,
      /ros2 role|no telemetry source is named like it/,
      'no binding advice for a type nothing reads',
    );
  });
}

t.test('an arm cell with /tf, a camera and an action: skipped by type, joint states judged', async (t) => {
  const dir = t.testdir();
  const path = join(dir, 'cell.mcap');
  const { gate, profile } = makeGate();
  const w = await openBag(path);
  for (let dt = 0; dt <= 100; dt += 20)
    await w.write(TOPICS.joints, jointStateMsg(profile, T0 + dt), T0 + dt);
  await w.finish();
  // Topics of types no gate reads, with schemas that would not even parse here: they must not be decoded.
  const raw = await openRawMcap(join(dir, 'other.mcap'));
  const add = async (topic: string, name: string, text: string) => {
    const schemaId = await raw.registerSchema({
      name,
      encoding: 'ros2msg',
      data: new TextEncoder().encode(text),
    });
    const channelId = await raw.registerChannel({
      topic,
      schemaId,
      messageEncoding: 'cdr',
      metadata: new Map(),
    });
    await raw.addMessage({
      channelId,
      sequence: 0,
      logTime: BigInt(T0) * 1_000_000n,
      publishTime: 0n,
      data: new Uint8Array([9, 9]),
    });
  };
  await add('/tf', 'tf2_msgs/msg/TFMessage', 'geometry_msgs/msg/TransformStamped[] transforms\n');
  await add('/camera/image_raw', 'sensor_msgs/msg/Image', 'not a definition at all [\n');
  await add(
    '/scaled_joint_trajectory_controller/follow_joint_trajectory/_action/feedback',
    'control_msgs/action/FollowJointTrajectory_FeedbackMessage',
    '---\n',
  );
  await raw.finish();

  const s = await replayRecording({ bagPath: path, profile, gate });
  t.equal(s.telemetry.accepted, 6);
  const other = await replayRecording({ bagPath: join(dir, 'other.mcap'), ...makeGate() });
  t.equal(other.error, undefined);
  t.same(other.skipped.byReason, { 'unsupported-type': 3 });
  const byTopic = Object.fromEntries(other.messages.byTopic.map((c) => [c.topic, c.boundTo]));
  t.match(byTopic['/tf'], /^skipped: no gate reads tf2_msgs\/msg\/TFMessage; nothing to do, unless/);
  t.match(byTopic['/camera/image_raw'], /^skipped: no gate reads sensor_msgs\/msg\/Image;/);
  t.match(
    byTopic['/scaled_joint_trajectory_controller/follow_joint_trajectory/_action/feedback'],
    /^skipped: part of an action .*; a trajectory sent as an action goal \(FollowJointTrajectory\) is not judged here: to gate it, send it on an intent topic \(trajectory_msgs\/msg\/JointTrajectory\)$/,
  );
});

t.test(
  'a topic the profile names, recorded as a type no gate reads: a warning, the gates fail closed',
  async (t) => {
    const path = join(t.testdir(), 'named.mcap');
    const { gate, profile } = makeGate();
    const named = {
      ...profile,
      topics: {
        ros2: {
          jointStates: {
            name: '/arm/joint_states',
            qos: { reliability: 'best-effort' as const, durability: 'volatile' as const, depth: 5 },
          },
          cmd: {
            name: '/cmd',
            qos: { reliability: 'reliable' as const, durability: 'volatile' as const, depth: 10 },
          },
        },
      },
    };
    const raw = await openRawMcap(path);
    const schemaId = await raw.registerSchema({
      name: 'control_msgs/msg/DynamicJointState',
      encoding: 'ros2msg',
      data: new TextEncoder().encode('string[] joint_names\n'),
    });
    const channelId = await raw.registerChannel({
      topic: '/arm/joint_states',
      schemaId,
      messageEncoding: 'cdr',
      metadata: new Map(),
    });
    await raw.addMessage({
      channelId,
      sequence: 0,
      logTime: BigInt(T0) * 1_000_000n,
      publishTime: 0n,
      data: new Uint8Array([0, 1, 0, 0, 0, 0, 0, 0]),
    });
    await raw.finish();
    const s = await replayRecording({ bagPath: path, profile: named, gate });
    t.same(s.skipped.byReason, { 'unbound-topic': 1 });
    t.match(s.warnings, [
      /^\/arm\/joint_states \[control_msgs\/msg\/DynamicJointState\]: the profile's topics\.ros2 role jointStates names this topic, but it is not read: .*carries joint-state frames, read from sensor_msgs\/msg\/JointState, got control_msgs\/msg\/DynamicJointState; the gates that need it fail closed \(MISSING_DATA\)$/,
    ]);
  },
);

t.test(
  'rosbag2 talker (sqlite3): /rosout skipped by type, a chatter String told apart from consent and firmware',
  async (t) => {
    const s = await replayRecording({
      bagPath: join(VECTORS, 'rosbag2_py/test/resources/sqlite3/talker'),
      ...makeGate(),
    });
    t.equal(s.error, undefined);
    t.same(s.skipped.byReason, { 'unsupported-type': 10, 'unbound-topic': 10 });
    const byTopic = Object.fromEntries(s.messages.byTopic.map((c) => [c.topic, c.boundTo]));
    t.match(byTopic['/rosout'], /^skipped: no gate reads rcl_interfaces\/msg\/Log;/);
    t.equal(
      byTopic['/topic'],
      'unbound: ros2 role topic: std_msgs/msg/String is read only as consent (role consent) or as a firmware report (a role named after the firmware source: firmware); nothing to do if /topic is neither, else name it in topics.ros2 under that role',
    );
  },
);
