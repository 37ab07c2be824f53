/**
 * The proximity sources of a `sim cell` belong to its sensor account: over the real embedded broker of the
 * written cell, the robot's account may publish a battery frame but not a proximity frame (the
 * broker refuses it and, with MQTT 3.1.1, closes the connection), while the sensor account's proximity frame
 * reaches a subscriber with the edge's role.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { commands as edgeCommands } from '@pentagate/edge/commands';
import { resolveCommandLine, robotTopics, TOPIC_ROOT } from '@pentagate/protocol';
import t from 'tap';
import { MqttConnection } from '../src/transport/mqtt-connection.js';
import { requireEdgeCli } from './helpers/edge-cli.js';
import {
  cellPassword,
  edgeArgvWithWatcher,
  startCellEdge,
  WATCHER,
  writeSimCell,
} from './helpers/sim-cell.js';

t.setTimeout(120_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const password = cellPassword;

t.test(
  "a sim cell's robot account cannot publish the proximity sources; its sensor account can",
  async (t) => {
    if (!requireEdgeCli(t)) return;
    const written = await writeSimCell(t);
    const { cell, port, err, code, usersPath } = written;
    t.equal(code, 0, err);
    t.match(err, /proximity sources only as sensor-ur5e-01 \(password in \S+sensor-ur5e-01\.password\)/);
    t.equal((await stat(join(cell, 'broker', 'sensor-ur5e-01.password'))).mode & 0o777, 0o600);
    const users = JSON.parse(await readFile(usersPath, 'utf8')) as {
      username: string;
      role: string;
      sources?: string[];
    }[];
    t.same(
      users.map((u) => [u.username, u.role, u.sources]),
      [
        ['sim-ur5e-01', 'planner', undefined],
        ['robot-ur5e-01', 'controller', ['joint_states', 'battery', 'firmware']],
        ['sensor-ur5e-01', 'sensor', ['proximity-front', 'proximity-rear']],
        ['operator-ur5e-01', 'operator', undefined],
      ],
    );
    // The cell's own users file plus an account with the edge's role, to see what the edge would receive.
    const watcher = WATCHER;
    const argv = await edgeArgvWithWatcher(written);
    t.same(resolveCommandLine(argv, edgeCommands).command.path, ['edge', 'run']);
    const { edge, exit: edgeExit } = await startCellEdge(t, argv);

    const url = `mqtt://127.0.0.1:${port}`;
    const topics = robotTopics('ur5e-01');
    const watch = await MqttConnection.connect({ url, ...watcher }, 'tap');
    const robot = await MqttConnection.connect(
      { url, username: 'robot-ur5e-01', password: await password(cell, 'robot-ur5e-01') },
      'tap',
    );
    const sensor = await MqttConnection.connect(
      { url, username: 'sensor-ur5e-01', password: await password(cell, 'sensor-ur5e-01') },
      'tap',
    );
    t.teardown(async () => {
      for (const c of [watch, robot, sensor]) await c.close().catch(() => {});
    });
    const received: [string, string][] = [];
    watch.onMessage((topic, payload) => {
      received.push([topic, (JSON.parse(payload.toString('utf8')) as { from: string }).from]);
    });
    await watch.subscribe([`${TOPIC_ROOT}/ur5e-01/telemetry/+`]);

    // Only the topic and who sent it matter here; the broker does not read the frame.
    const frame = (source: string, from: string) =>
      JSON.stringify({ v: 1, robotId: 'ur5e-01', source, seq: 1, stampMs: Date.now(), from });
    await robot.publish(topics.telemetry('battery'), frame('battery', 'robot'));
    // Not awaited: the broker answers a refused PUBLISH by closing the connection, never with a PUBACK.
    void robot
      .publish(topics.telemetry('proximity-front'), frame('proximity-front', 'robot'))
      .catch(() => {});
    for (let i = 0; i < 100 && robot.connected; i++) await sleep(50);
    t.notOk(robot.connected, "the broker closed the robot's connection on its proximity frame");
    await sensor.publish(topics.telemetry('proximity-front'), frame('proximity-front', 'sensor'));
    for (let i = 0; i < 100 && received.length < 2; i++) await sleep(50);
    await sleep(200);
    t.same(
      received,
      [
        [topics.telemetry('battery'), 'robot'],
        [topics.telemetry('proximity-front'), 'sensor'],
      ],
      "the robot's battery frame and the sensor's proximity frame arrive; the robot's proximity frame does not",
    );
    t.ok(sensor.connected, 'the sensor account stays connected');
    edge.kill('SIGTERM');
    t.equal(await edgeExit, 0, 'the edge shuts down cleanly');
  },
);
