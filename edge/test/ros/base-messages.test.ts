/**
 * Mobile-base and car messages through CDR: nav_msgs/Odometry → pose frames, geometry_msgs/TwistStamped (ROS 2
 * Jazzy's cmd_vel) and ackermann_msgs/AckermannDriveStamped → base-twist intents the gate judges like a Twist.
 */
import { IntentSchema, TelemetryFrameSchema, conforms } from '@pentagate/protocol';
import t from 'tap';
import { RosMessageMapper } from '../../src/ros/message-mapping.js';
import { bindRole } from '../../src/ros/ros-bindings.js';
import { ROS_TYPES } from '../../src/ros/ros-types.js';
import { T0, baseProfile, feedHealthy, makeGate } from '../trap/fixtures.js';
import { ackermannMsg, odometryMsg, throughCdr, twistStampedMsg } from './helpers/ros-messages.js';

const base = baseProfile();
const mapper = (checkStamps = true) => new RosMessageMapper({ robotId: base.robotId, checkStamps });

t.test(
  'Odometry becomes a pose frame from pose.pose with twist.twist as its velocity, stamped with its header',
  async (t) => {
    const b = bindRole(base, 'pose', '/odometry/filtered', undefined, { type: 'nav_msgs/msg/Odometry' });
    t.equal(b.type, ROS_TYPES.odometry);
    t.match(b.target, { kind: 'telemetry', source: 'pose', telemetryKind: 'pose' });
    const m = mapper();
    const msg = throughCdr(b.type, odometryMsg(T0 - 20, { x: 4, y: -0.5 }, Math.PI / 2, { vx: 0.8 }));
    const r = m.map(b, msg, T0, b.type);
    t.match(r, {
      kind: 'telemetry',
      frame: {
        kind: 'pose',
        source: 'pose',
        stampMs: T0 - 20,
        positionM: { x: 4, y: -0.5, z: 0 },
        orientation: { x: 0, y: 0, z: Math.sin(Math.PI / 4), w: Math.cos(Math.PI / 4) },
        velocity: { linearMps: { x: 0.8, y: 0, z: 0 }, angularRadS: { x: 0, y: 0, z: 0 } },
      },
    });
    if (r.kind === 'telemetry') {
      t.ok(conforms(TelemetryFrameSchema, r.frame));
      const absurd = structuredClone(r.frame) as { velocity: { linearMps: { x: number } } };
      absurd.velocity.linearMps.x = 5e3;
      t.notOk(conforms(TelemetryFrameSchema, absurd), 'the wire schema bounds a measured velocity (±1000)');
    }
    const { gate } = makeGate(base);
    if (r.kind === 'telemetry')
      t.match(gate.ingestTelemetry(r.frame, T0), { accepted: true }, 'the gate takes it');
    const nan = odometryMsg(T0, { x: Number.NaN, y: 0 });
    t.match(m.map(b, throughCdr(b.type, nan), T0), {
      kind: 'skip',
      reason: 'non-finite',
      detail: /nav_msgs\/msg\/Odometry\.pose\.pose\.position\.x: non-finite/,
    });
    t.match(
      m.map(b, throughCdr(b.type, odometryMsg(T0, { x: 1, y: 0 }, 0, { wz: Number.POSITIVE_INFINITY })), T0),
      {
        kind: 'skip',
        reason: 'non-finite',
        detail: /Odometry\.twist\.twist\.angular\.z: non-finite/,
      },
    );
    t.match(m.map(b, { ...odometryMsg(T0, { x: 1, y: 1 }), pose: { covariance: [] } }, T0), {
      kind: 'skip',
      reason: 'missing-field',
      detail: /Odometry\.pose\.pose: missing/,
    });
  },
);

t.test(
  'an Odometry from an unsynchronized GPS clock, or never stamped, is skipped with its reason',
  async (t) => {
    const b = bindRole(base, 'pose', '/odom', undefined, { type: ROS_TYPES.odometry });
    const m = mapper();
    const gpsDaysBehind = odometryMsg(T0 - 4 * 86_400_000 - 3_000, { x: 1, y: 0 });
    t.match(m.map(b, throughCdr(b.type, gpsDaysBehind), T0), {
      kind: 'skip',
      reason: 'foreign-clock',
      detail: /^\/odom: stamped \d{4}-.*4\.0 days before the edge's clock .*unsynchronized GPS/,
    });
    const unstamped = {
      ...odometryMsg(T0, { x: 1, y: 0 }),
      header: { stamp: { sec: 0, nanosec: 0 }, frame_id: 'odom' },
    };
    t.match(m.map(b, throughCdr(b.type, unstamped), T0), { kind: 'skip', reason: 'unstamped' });
    t.match(m.map(b, throughCdr(b.type, odometryMsg(T0 - 101, { x: 1, y: 0 })), T0), {
      kind: 'skip',
      reason: 'stale-stamp',
      detail: /101 ms ago, source allows 100 ms/,
    });
    t.match(m.skipCounts(), { 'foreign-clock': 1, unstamped: 1, 'stale-stamp': 1 });
    t.match(
      mapper(false).map(b, throughCdr(b.type, gpsDaysBehind), T0),
      { kind: 'telemetry', frame: { stampMs: T0 } },
      'with stamp checks off the frame is aged by arrival',
    );
  },
);

t.test(
  'with a frameId override, odometry in another frame (odom, not map) is skipped as wrong-frame',
  async (t) => {
    const b = bindRole(base, 'pose', '/odom', undefined, { type: ROS_TYPES.odometry, frameId: 'map' });
    t.match(b.target, { frameId: 'map' });
    const m = mapper();
    t.match(m.map(b, throughCdr(b.type, odometryMsg(T0, { x: 1, y: 0 }, 0, {}, 'odom')), T0), {
      kind: 'skip',
      reason: 'wrong-frame',
      detail: /^\/odom: header\.frame_id is "odom", the role expects "map"/,
    });
    t.match(
      m.map(b, throughCdr(b.type, odometryMsg(T0, { x: 1, y: 0 }, 0, {}, '/map')), T0),
      { kind: 'telemetry', frame: { kind: 'pose' } },
      'a leading slash (a ROS 1 habit) names the same frame',
    );
    t.match(m.skipCounts(), { 'wrong-frame': 1 });
    const odomAllowed = bindRole(base, 'pose', '/odom', undefined, {
      type: ROS_TYPES.odometry,
      frameId: 'odom',
    });
    t.match(
      mapper().map(odomAllowed, throughCdr(b.type, odometryMsg(T0, { x: 1, y: 0 }, 0, {}, 'odom')), T0),
      { kind: 'telemetry' },
      'zones drawn in odom: the override says so',
    );
  },
);

t.test(
  'without a frameId override, a pose in REP 105 odom is skipped as wrong-frame; other frames are not checked',
  async (t) => {
    const b = bindRole(base, 'pose', '/odom', undefined, { type: ROS_TYPES.odometry });
    const m = mapper();
    for (const frameId of ['odom', '/odom', 'robot1/odom']) {
      t.match(
        m.map(b, throughCdr(b.type, odometryMsg(T0, { x: 1, y: 0 }, 0, {}, frameId)), T0),
        {
          kind: 'skip',
          reason: 'wrong-frame',
          detail:
            /header\.frame_id is "(robot1\/)?odom": a pose in the odom frame \(REP 105\) drifts from the map frame/,
        },
        frameId,
      );
    }
    for (const frameId of ['map', 'world', 'odom_combined_map']) {
      t.match(
        mapper().map(b, throughCdr(b.type, odometryMsg(T0, { x: 1, y: 0 }, 0, {}, frameId)), T0),
        { kind: 'telemetry', frame: { kind: 'pose' } },
        frameId,
      );
    }
    const poseStamped = bindRole(base, 'pose', '/pose', undefined, { type: ROS_TYPES.poseStamped });
    t.match(
      mapper().map(
        poseStamped,
        {
          header: { stamp: { sec: Math.floor(T0 / 1000), nanosec: 0 }, frame_id: 'odom' },
          pose: { position: { x: 1, y: 2, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } },
        },
        Math.floor(T0 / 1000) * 1000,
      ),
      { kind: 'skip', reason: 'wrong-frame' },
      'PoseStamped alike',
    );
  },
);

t.test('TwistStamped becomes a base-twist intent the gate signs like a Twist', async (t) => {
  const b = bindRole(base, 'intent', '/cmd_vel', undefined, {
    type: 'geometry_msgs/msg/TwistStamped',
    twistDurationMs: 200,
    moveClass: 'transit',
  });
  t.equal(b.type, ROS_TYPES.twistStamped);
  t.equal(b.qos.reliability, 'reliable');
  const r = mapper().map(b, throughCdr(b.type, twistStampedMsg(T0 - 30, 0.5, 0.2)), T0, b.type);
  t.match(r, {
    kind: 'intent',
    intent: {
      kind: 'base-twist',
      robotId: 'amr-07',
      moveClass: 'transit',
      durationMs: 200,
      linearMps: { x: 0.5, y: 0, z: 0 },
      angularRadS: { x: 0, y: 0, z: 0.2 },
      intentId: /^ros\.intent\./,
    },
  });
  if (r.kind !== 'intent') return;
  t.ok(conforms(IntentSchema, r.intent));
  const { gate, profile } = makeGate(base);
  feedHealthy(gate, profile);
  t.equal(gate.trapAndSign(r.intent, T0).kind, 'signed');
});

t.test(
  'a TwistStamped older than its hold time, unstamped or from another clock is not an intent',
  async (t) => {
    const b = bindRole(base, 'intent', '/cmd_vel', undefined, { type: ROS_TYPES.twistStamped });
    const m = mapper();
    t.match(m.map(b, throughCdr(b.type, twistStampedMsg(T0 - 101, 0.5, 0)), T0), {
      kind: 'skip',
      reason: 'stale-stamp',
      detail: /101 ms ago, the command is held for 100 ms/,
    });
    t.match(m.map(b, throughCdr(b.type, twistStampedMsg(0, 0.5, 0)), T0), {
      kind: 'skip',
      reason: 'unstamped',
    });
    t.match(m.map(b, throughCdr(b.type, twistStampedMsg(T0 + 3 * 3_600_000, 0.5, 0)), T0), {
      kind: 'skip',
      reason: 'foreign-clock',
      detail: /3\.0 h after/,
    });
    t.match(m.map(b, throughCdr(b.type, twistStampedMsg(T0 + 600, 0.5, 0)), T0), {
      kind: 'skip',
      reason: 'future-stamp',
    });
    t.match(m.map(b, throughCdr(b.type, twistStampedMsg(T0, Number.NaN, 0)), T0), {
      kind: 'skip',
      reason: 'non-finite',
      detail: /TwistStamped\.twist\.linear\.x/,
    });
    t.match(m.map(b, throughCdr(b.type, twistStampedMsg(T0, 0.5, 0)), T0), { kind: 'intent' });
  },
);

t.test('AckermannDriveStamped: speed forward, yaw rate v·tan(δ)/wheelbase (bicycle model)', async (t) => {
  const b = bindRole(base, 'intent', '/ackermann_cmd', undefined, {
    type: 'ackermann_msgs/msg/AckermannDriveStamped',
    wheelbaseM: 0.5,
  });
  t.match(b.target, { kind: 'intent', wheelbaseM: 0.5 });
  const m = mapper();
  const steer = Math.fround(0.3);
  const speed = Math.fround(0.6);
  const r = m.map(b, throughCdr(b.type, ackermannMsg(T0, 0.6, 0.3)), T0, b.type);
  t.match(r, { kind: 'intent', intent: { kind: 'base-twist', linearMps: { x: speed, y: 0, z: 0 } } });
  if (r.kind !== 'intent' || r.intent.kind !== 'base-twist') return;
  t.ok(conforms(IntentSchema, r.intent));
  t.equal(r.intent.angularRadS.z, (speed * Math.tan(steer)) / 0.5);
  const reverse = m.map(b, throughCdr(b.type, ackermannMsg(T0, -0.6, 0.3)), T0);
  t.match(reverse, { kind: 'intent' });
  if (reverse.kind === 'intent' && reverse.intent.kind === 'base-twist') {
    t.equal(
      reverse.intent.angularRadS.z,
      -r.intent.angularRadS.z,
      'reversing with left lock turns clockwise',
    );
  }
  t.match(m.map(b, throughCdr(b.type, ackermannMsg(T0, 0.6, 1.6)), T0), {
    kind: 'skip',
    reason: 'malformed',
    detail: /steering_angle 1\.6\d* rad: a front wheel turned ±90°/,
  });
  const { gate, profile } = makeGate(base);
  feedHealthy(gate, profile);
  const gentle = m.map(b, throughCdr(b.type, ackermannMsg(T0, 0.8, 0.5)), T0);
  const sharp = m.map(b, throughCdr(b.type, ackermannMsg(T0, 1, 0.7)), T0);
  t.ok(gentle.kind === 'intent' && sharp.kind === 'intent');
  if (gentle.kind !== 'intent' || sharp.kind !== 'intent') return;
  t.match(gate.trapAndSign(gentle.intent, T0), { kind: 'signed' }, '0.87 rad/s is within the profile');
  const veto = gate.trapAndSign(sharp.intent, T0);
  t.match(veto, { kind: 'veto' }, "tan(0.7)/0.5 = 1.685 rad/s over the profile's 1.5 rad/s is vetoed");
  t.match(veto.verdict.violations, [
    /^INVARIANT\.VELOCITY_LIMIT: angular 1\.685 rad\/s > limit 1\.500 rad\/s/,
  ]);
  t.throws(
    () => bindRole(base, 'intent', '/ackermann_cmd', undefined, { type: ROS_TYPES.ackermannDriveStamped }),
    {
      code: 'ROS2_BINDING_INVALID',
      message: /needs "wheelbaseM" in the role's override/,
    },
  );
});
