/**
 * `pentagate edge run --transport …` from the command line: a serial controller over a real socat
 * pseudo-terminal with the real CLI process, ROS 2 through the fake of the rclnodejs surface (ROS 2 cannot run
 * here), ROS 2 sensors in with commands out on the serial line, and the one-line errors when ROS 2 is missing.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { acceptMotorCommand, writeHmacKeyFile } from '@pentagate/crypto';
import type { MotorCommand, RobotProfile, VerdictEvent } from '@pentagate/protocol';
import t from 'tap';
import { startEdgeRun } from '../../src/cli/edge-run.js';
import { edgeRunOptions } from '../../src/cli/edge-run-command.js';
import { createEdgeLogger } from '../../src/observability/logger.js';
import { type ArmFixture, armFixture } from '../runtime/helpers/arm-fixture.js';
import { cli } from '../runtime/helpers/run-edge-cli.js';
import { FakeRclnodejs } from './helpers/fake-rclnodejs.js';
import { PtyPair, socatMissing } from './helpers/pty-pair.js';
import { header, stamp } from './helpers/recordings.js';
import { rosProfile } from './helpers/ros-profile.js';
import { Controller } from './helpers/serial-controller.js';

const PENTAGATE_BIN = join(dirname(fileURLToPath(import.meta.url)), '../../../bin/pentagate.js');
const EDGE_DIST = join(dirname(fileURLToPath(import.meta.url)), '../../dist/commands.js');
const missingSocat = socatMissing();
// The ROS 2 loader looks at AMENT_PREFIX_PATH; these tests are about a machine without ROS 2.
delete process.env.AMENT_PREFIX_PATH;

const isCommand = (v: unknown): v is MotorCommand => typeof (v as MotorCommand).mac === 'string';
const quiet = () => createEdgeLogger({ destination: new Writable({ write: (_c, _e, cb) => cb() }) });

async function files(dir: string, fixture: ArmFixture, profile: RobotProfile) {
  const profilePath = join(dir, 'profile.json');
  await writeFile(profilePath, JSON.stringify(profile));
  const hmacKey = join(dir, 'cmd.jwk');
  await writeHmacKeyFile(hmacKey, fixture.hmacKey.key);
  const firmware = join(dir, 'fw.json');
  await writeFile(firmware, JSON.stringify(fixture.firmwareManifest));
  return { profilePath, hmacKey, firmware };
}

function feedRos(rcl: FakeRclnodejs, fixture: ArmFixture, nowMs: number, nearestM: number | null = null) {
  for (const f of fixture.passingFrames(1, nowMs)) {
    if (f.kind === 'joint-state') {
      rcl.deliver('/joint_states', {
        header: header(nowMs),
        name: f.names,
        position: f.positionsRad,
        velocity: f.velocitiesRadS,
        effort: f.effortsNm,
      });
    }
  }
  rcl.deliver('/scan', {
    header: header(nowMs),
    angle_min: -0.5,
    angle_max: 0.5,
    angle_increment: 0.5,
    time_increment: 0,
    scan_time: 0.1,
    range_min: 0.05,
    range_max: 20,
    ranges: [Number.POSITIVE_INFINITY, nearestM ?? Number.POSITIVE_INFINITY, Number.NaN],
    intensities: [],
  });
  rcl.deliver('/battery_state', {
    header: header(nowMs),
    voltage: 48,
    temperature: Number.NaN,
    current: -1,
    charge: Number.NaN,
    capacity: Number.NaN,
    percentage: 0.9,
  });
}

function rosIntent(fixture: ArmFixture, nowMs: number) {
  const move = fixture.smallMove('unused');
  if (move.kind !== 'joint-trajectory') throw new Error('fixture move is a trajectory');
  return {
    header: header(nowMs),
    joint_names: move.jointNames,
    points: move.points.map((p) => ({
      positions: p.positionsRad,
      velocities: p.velocitiesRadS ?? [],
      accelerations: [],
      effort: p.effortsNm ?? [],
      time_from_start: stamp(p.timeFromStartMs),
    })),
  };
}

t.test(
  'edge run --transport serial (real CLI process, socat line): a signed command the controller accepts, a STOP at shutdown',
  { skip: missingSocat ?? (existsSync(EDGE_DIST) ? false : 'the edge package is not built (npm run build)') },
  async (t) => {
    const dir = t.testdir();
    const pty = new PtyPair(dir);
    await pty.start();
    t.teardown(() => pty.stop());
    const fixture = armFixture({ robotId: 'mcu-cli' });
    // The profile names another device and COBS framing; --serial-port points at the pseudo-terminal.
    const profile: RobotProfile = {
      ...fixture.profile,
      topics: { serial: { path: '/dev/ttyACM9', baudRate: 230_400, framing: 'cobs' } },
    };
    const f = await files(dir, fixture, profile);
    const edge = spawn(
      process.execPath,
      [
        PENTAGATE_BIN,
        'edge',
        'run',
        '--profile',
        f.profilePath,
        '--hmac-key',
        f.hmacKey,
        '--firmware',
        f.firmware,
        '--transport',
        'serial',
        '--serial-port',
        pty.edgePath,
        '--state-dir',
        join(dir, 'state'),
        '--log-level',
        'warn',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    t.teardown(() => {
      if (edge.exitCode === null) edge.kill('SIGKILL');
    });
    const exited = new Promise<number | null>((r) => edge.on('exit', r));
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      edge.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (stderr.includes('serving robot mcu-cli over serial')) resolve();
      });
      edge.on('exit', (code) => reject(new Error(`edge exited with ${code}: ${stderr}`)));
    });
    const mcu = await Controller.open(pty.controllerPath, 'cobs');
    t.teardown(() => mcu.close());
    const keys = new Map([[fixture.hmacKey.kid, fixture.hmacKey.key]]);
    for (const frame of fixture.passingFrames(1, Date.now())) mcu.send(frame);
    mcu.send(fixture.smallMove('cli-serial-1'));
    const command = await mcu.next<MotorCommand>((v) => isCommand(v) && v.intentId === 'cli-serial-1');
    const accepted = acceptMotorCommand({ robotId: 'mcu-cli', epoch: 0, lastSeq: 0 }, command, {
      keys,
      nowMs: Date.now(),
    });
    t.ok(accepted.accepted, accepted.accepted ? 'the controller accepts it' : accepted.detail);
    t.notOk(
      mcu.received.some((v) => typeof (v as VerdictEvent).outcome === 'string'),
      'no verdicts on the line unless topics.serial.sendVerdicts',
    );

    edge.kill('SIGTERM');
    const stop = await mcu.next<MotorCommand>((v) => isCommand(v) && v.setpoints.kind === 'stop');
    t.match(stop.setpoints, { kind: 'stop', reason: /SIGTERM/ }, 'the signed STOP names the signal');
    if (accepted.accepted) {
      t.ok(acceptMotorCommand(accepted.state, stop, { keys, nowMs: Date.now() }).accepted, 'STOP accepted');
    }
    t.equal(await exited, 0, 'exit 0 after SIGTERM');
  },
);

t.test('edge run --transport serial on a port that does not exist: one line, exit 2', async (t) => {
  const dir = t.testdir();
  const fixture = armFixture({ robotId: 'mcu-cli' });
  const f = await files(dir, fixture, fixture.profile);
  const args = ['edge', 'run', '--profile', f.profilePath, '--hmac-key', f.hmacKey, '--transport', 'serial'];
  const noLine = await cli([...args, '--state-dir', join(dir, 's1')]);
  t.equal(noLine.code, 2);
  t.match(noLine.err, /no topics\.serial and no --serial-port/);
  const gone = await cli([...args, '--serial-port', join(dir, 'no-tty'), '--state-dir', join(dir, 's2')]);
  t.equal(gone.code, 2);
  t.match(gone.err, /cannot open serial port .*no-tty/);
  t.equal(gone.err.trim().split('\n').length, 1, 'one line');
});

t.test('edge run --transport ros2 without ROS 2: one clear line, exit 2', async (t) => {
  const dir = t.testdir();
  const fixture = armFixture({ robotId: 'ros-cli' });
  const f = await files(dir, fixture, rosProfile(fixture.profile));
  const r = await cli([
    'edge',
    'run',
    '--profile',
    f.profilePath,
    '--hmac-key',
    f.hmacKey,
    '--transport',
    'ros2',
    '--state-dir',
    join(dir, 'state'),
  ]);
  t.equal(r.code, 2);
  t.match(r.err, /ROS 2 is not sourced \(AMENT_PREFIX_PATH is unset\)/);
  t.equal(r.err.trim().split('\n').length, 1, 'one line, no stack');
  const bad = await cli([
    'edge',
    'run',
    '--profile',
    f.profilePath,
    '--hmac-key',
    f.hmacKey,
    '--transport',
    'can',
  ]);
  t.equal(bad.code, 2);
  t.match(bad.err, /--transport: expected mqtt, ros2, serial, got "can"/);
});

t.test(
  'edge run --transport ros2 (options from the command line, rclnodejs fake): a node with parameters, QoS per stream, /diagnostics',
  async (t) => {
    const dir = t.testdir();
    const fixture = armFixture({ robotId: 'ros-cli' });
    const profile = rosProfile(fixture.profile);
    const { diagnostics: _omitted, ...roles } = profile.topics?.ros2 ?? {};
    const f = await files(dir, fixture, { ...profile, topics: { ros2: roles } });
    const options = await edgeRunOptions({
      options: {
        profile: f.profilePath,
        'hmac-key': f.hmacKey,
        firmware: [f.firmware],
        transport: ['ros2'],
        'ros-namespace': '/cell_1',
        mqtt: 'embedded:1883',
        'state-dir': join(dir, 'state'),
        'log-level': 'silent',
      },
      positionals: [],
    });
    // A launch file sets max_future_skew_ms; the node reads it back.
    const rcl = new FakeRclnodejs({ max_future_skew_ms: 250 });
    const started = await startEdgeRun({
      ...options,
      logger: quiet(),
      ros: { ...options.ros, rclnodejs: rcl },
    });
    t.teardown(() => started.stop());
    t.equal(started.broker, undefined, 'no MQTT broker without --transport mqtt');
    t.match(rcl.nodes[0], { name: 'pentagate_edge_ros_cli', namespace: '/cell_1' });
    const params = rcl.parameters.get('pentagate_edge_ros_cli');
    t.same(
      [...(params?.keys() ?? [])].sort(),
      ['check_stamps', 'max_future_skew_ms', 'robot_id'],
      'parameters declared',
    );
    t.equal(params?.get('max_future_skew_ms')?.parameter.value, 250, 'the launch override wins');
    t.equal(params?.get('robot_id')?.descriptor?.readOnly, true);
    const sub = (topic: string) => rcl.subscriptions.find((s) => s.topic === topic);
    t.equal(sub('/joint_states')?.options.qos, 'qos_profile_sensor_data', 'sensor data: best-effort');
    t.match(rcl.publisher('/pentagate/cmd').options, { qos: { reliability: 1 } }, 'commands: reliable');
    t.equal(
      rcl.publisher('/diagnostics').typeClass,
      'diagnostic_msgs/msg/DiagnosticArray',
      '/diagnostics even when the profile names no diagnostics role',
    );

    rcl.deliver('/controller/firmware', {
      data: JSON.stringify({ imageSha256: 'ab'.repeat(32), version: '1' }),
    });
    feedRos(rcl, fixture, Date.now());
    rcl.deliver('/pentagate/intent', rosIntent(fixture, Date.now()));
    await started.edge.node.settled();
    const cmds = rcl.publisher('/pentagate/cmd').published as { data: string }[];
    t.equal(cmds.length, 1, 'one signed command on /pentagate/cmd');
    const accepted = acceptMotorCommand(
      { robotId: 'ros-cli', epoch: 0, lastSeq: 0 },
      JSON.parse(cmds[0]?.data ?? '{}') as MotorCommand,
      { keys: new Map([[fixture.hmacKey.kid, fixture.hmacKey.key]]), nowMs: Date.now() },
    );
    t.ok(accepted.accepted, 'the controller accepts it');
    t.ok(rcl.publisher('/diagnostics').published.length >= 1, 'diagnostics published');
  },
);

t.test('a best-effort cmd role is refused: a dropped STOP would not be resent', async (t) => {
  const dir = t.testdir();
  const fixture = armFixture({ robotId: 'ros-cli' });
  const profile = rosProfile(fixture.profile);
  const roles = { ...profile.topics?.ros2 };
  roles.cmd = {
    name: '/pentagate/cmd',
    qos: { reliability: 'best-effort', durability: 'volatile', depth: 5 },
  };
  const f = await files(dir, fixture, { ...profile, topics: { ros2: roles } });
  const options = await edgeRunOptions({
    options: {
      profile: f.profilePath,
      'hmac-key': f.hmacKey,
      transport: ['ros2'],
      mqtt: 'embedded:1883',
      'state-dir': join(dir, 'state'),
      'log-level': 'silent',
    },
    positionals: [],
  });
  const rcl = new FakeRclnodejs();
  await t.rejects(startEdgeRun({ ...options, logger: quiet(), ros: { rclnodejs: rcl } }), {
    code: 'ROS2_BINDING_INVALID',
    message: /cmd must be reliable/,
  });
  t.notOk(rcl.initialized, 'refused before a ROS context starts');
});

t.test(
  'edge run --transport ros2,serial: sensors and intents from ROS 2, commands to the controller on the serial line',
  { skip: missingSocat },
  async (t) => {
    const dir = t.testdir();
    const pty = new PtyPair(dir);
    await pty.start();
    t.teardown(() => pty.stop());
    const fixture = armFixture({ robotId: 'mixed' });
    const profile: RobotProfile = {
      ...rosProfile(fixture.profile),
      topics: {
        ...rosProfile(fixture.profile).topics,
        serial: { path: pty.edgePath, baudRate: 115_200, framing: 'ndjson' },
      },
    };
    const f = await files(dir, fixture, profile);
    const options = await edgeRunOptions({
      options: {
        profile: f.profilePath,
        'hmac-key': f.hmacKey,
        firmware: [f.firmware],
        transport: ['ros2,serial'],
        mqtt: 'embedded:1883',
        'state-dir': join(dir, 'state'),
        'log-level': 'silent',
      },
      positionals: [],
    });
    t.same(options.transports, ['ros2', 'serial']);
    const rcl = new FakeRclnodejs();
    const started = await startEdgeRun({ ...options, logger: quiet(), ros: { rclnodejs: rcl } });
    let stopped = false;
    t.teardown(() => (stopped ? undefined : started.stop()));
    const mcu = await Controller.open(pty.controllerPath, 'ndjson');
    t.teardown(() => mcu.close());

    rcl.deliver('/controller/firmware', {
      data: JSON.stringify({ imageSha256: 'ab'.repeat(32), version: '1' }),
    });
    feedRos(rcl, fixture, Date.now());
    rcl.deliver('/pentagate/intent', rosIntent(fixture, Date.now()));
    const command = await mcu.next<MotorCommand>((v) => isCommand(v) && v.setpoints.kind !== 'stop');
    const keys = new Map([[fixture.hmacKey.kid, fixture.hmacKey.key]]);
    const accepted = acceptMotorCommand({ robotId: 'mixed', epoch: 0, lastSeq: 0 }, command, {
      keys,
      nowMs: Date.now(),
    });
    t.ok(accepted.accepted, 'the controller on the serial line accepts the command');
    t.equal(rcl.publisher('/pentagate/cmd').published.length, 0, 'no command on ROS 2: one command stream');
    const verdicts = (rcl.publisher('/pentagate/verdict').published as { data: string }[]).map(
      (m) => JSON.parse(m.data) as VerdictEvent,
    );
    t.ok(
      verdicts.some((v) => v.outcome === 'signed'),
      'the verdict is published on ROS 2',
    );

    feedRos(rcl, fixture, Date.now() + 1, 0.3);
    const stop = await mcu.next<MotorCommand>((v) => isCommand(v) && v.setpoints.kind === 'stop');
    t.match(
      stop.setpoints,
      { kind: 'stop', reason: /RISK/ },
      'a human seen on ROS 2 stops the serial controller',
    );
    stopped = true;
    await started.stop('test over');
    t.ok(rcl.shutDown, 'the ROS 2 node is shut down');
  },
);
