/**
 * A `sim cell`'s planner account publishes intents and nothing else (src/edge/cell-broker-accounts.ts): over
 * the real embedded broker (aedes, in the edge started with the cell's printed line), its publish on the
 * robot's joint_states, battery or firmware topic is refused (with MQTT 3.1.1 the broker closes the
 * connection) and never delivered, while its intent is; the robot's own account publishes joint_states, and
 * may not publish an intent. Before, the planner's account had role `simulator`, which publishes every source
 * no other account lists, so it could report the robot's joints, battery and firmware itself. With those
 * accounts `pentagate demo --connect` drives the cell (the planner's intents on a connection of their own) and
 * its moves are signed.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { robotTopics, TOPIC_ROOT } from '@pentagate/protocol';
import t from 'tap';
import { PENTAGATE_BIN } from '../src/edge/edge-process.js';
import { MqttConnection } from '../src/transport/mqtt-connection.js';
import { requireEdgeCli } from './helpers/edge-cli.js';
import { edgeArgvWithWatcher, startCellEdge, WATCHER, writeSimCell } from './helpers/sim-cell.js';

t.setTimeout(120_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.test(
  "a sim cell's planner may publish intents, not the robot's state; the robot's account may",
  async (t) => {
    if (!requireEdgeCli(t)) return;
    const written = await writeSimCell(t);
    const { cell, port, err } = written;
    t.equal(written.code, 0, err);
    t.match(err, /planner account sim-ur5e-01, intents only/);
    t.match(err, /the robot's state sources only as robot-ur5e-01/);
    // A watcher with the edge's role sees what the edge would receive: intents and telemetry.
    const watcher = WATCHER;
    const argv = await edgeArgvWithWatcher(written);
    const { edge, exit: edgeExit } = await startCellEdge(t, argv);

    const url = `mqtt://127.0.0.1:${port}`;
    const topics = robotTopics('ur5e-01');
    const login = async (user: string) => ({
      url,
      username: user,
      password: (await readFile(join(cell, 'broker', `${user}.password`), 'utf8')).trim(),
    });
    const planner = await login('sim-ur5e-01');
    const robot = await login('robot-ur5e-01');
    const open: MqttConnection[] = [];
    const connect = async (as: typeof planner) => {
      const conn = await MqttConnection.connect(as, 'tap');
      open.push(conn);
      return conn;
    };
    t.teardown(async () => {
      for (const c of open) await c.close().catch(() => {});
    });
    const watch = await connect({ url, ...watcher });
    const received: [string, string][] = [];
    watch.onMessage((topic, payload) => {
      received.push([topic, (JSON.parse(payload.toString('utf8')) as { from: string }).from]);
    });
    await watch.subscribe([`${TOPIC_ROOT}/ur5e-01/telemetry/+`, topics.intent]);

    // Only the topic and who sent it matter here; the broker does not read the message.
    const message = (from: string) =>
      JSON.stringify({ v: 1, robotId: 'ur5e-01', seq: 1, stampMs: Date.now(), from });
    /** Publishes on a fresh connection as `as`; true when the broker refused it (closed the connection). */
    const refused = async (as: typeof planner, topic: string, from: string) => {
      const conn = await connect(as);
      // Not awaited: the broker answers a refused PUBLISH by closing the connection, never with a PUBACK.
      void conn.publish(topic, message(from)).catch(() => {});
      for (let i = 0; i < 40 && conn.connected; i++) await sleep(50);
      return !conn.connected;
    };

    const plannerConn = await connect(planner);
    await plannerConn.publish(topics.intent, message('planner'));
    for (const source of ['joint_states', 'battery', 'firmware']) {
      t.ok(
        await refused(planner, topics.telemetry(source), 'planner'),
        `the planner's ${source} frame is refused`,
      );
    }
    t.ok(plannerConn.connected, "the planner's own connection, which published only an intent, stays open");
    await (await connect(robot)).publish(topics.telemetry('joint_states'), message('robot'));
    t.ok(await refused(robot, topics.intent, 'robot'), "the robot's account may not publish an intent");
    for (let i = 0; i < 100 && received.length < 2; i++) await sleep(50);
    await sleep(300);
    t.same(
      received,
      [
        [topics.intent, 'planner'],
        [topics.telemetry('joint_states'), 'robot'],
      ],
      "the planner's intent and the robot's joint states arrive; nothing else does",
    );

    const account = (flag: string, user: string) => [
      `--${flag}username`,
      user,
      `--${flag}password-file`,
      join(cell, 'broker', `${user}.password`),
    ];
    const demo = spawn(
      process.execPath,
      [
        PENTAGATE_BIN,
        'demo',
        ...['--connect', url, '--cell', cell],
        ...account('', 'robot-ur5e-01'),
        ...account('planner-', 'sim-ur5e-01'),
        ...account('sensor-', 'sensor-ur5e-01'),
        ...account('operator-', 'operator-ur5e-01'),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let demoOut = '';
    let demoErr = '';
    demo.stderr.on('data', (d: Buffer) => (demoErr += d.toString()));
    const demoExit = new Promise<number | null>((r) => demo.on('exit', r));
    demo.stdout.on('data', (d: Buffer) => {
      demoOut += d.toString();
      if (/SIGNED/.test(demoOut)) demo.kill('SIGTERM');
    });
    t.teardown(() => {
      if (demo.exitCode === null) demo.kill('SIGKILL');
    });
    t.equal(await demoExit, 0, demoErr);
    t.match(
      demoOut,
      /SIGNED\s+pick\s+seq \d+/,
      "the demo's planner intents are signed over the split accounts",
    );
    edge.kill('SIGTERM');
    t.equal(await edgeExit, 0, 'the edge shuts down cleanly');
  },
);
