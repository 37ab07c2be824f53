/**
 * A motion must not outlive the gate that signed it. When `edge run` dies without its shutdown STOP (SIGKILL, a
 * crash, the OOM killer) and starts again on a broker that outlived it, the new process knows nothing of the
 * motion the old one signed and cannot monitor it: it stops the robot as soon as it serves, with a STOP the
 * controller accepts (a newer epoch and seq than anything the old process signed). Real CLI process, real
 * broker and sockets.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acceptMotorCommand } from '@pentagate/crypto';
import { type MotorCommand, robotTopics } from '@pentagate/protocol';
import t from 'tap';
import { startEmbeddedBroker } from '../../src/broker/embedded-broker.js';
import { startEdgeCli } from './helpers/edge-cli-process.js';
import { edgeRunFiles } from './helpers/edge-run-files.js';
import { connectClient, MessageInbox } from './helpers/mqtt-clients.js';

t.test('an edge restarted after a crash stops the motion the crashed process signed', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-restart-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const f = await edgeRunFiles(dir);
  // The broker outlives the edge, as a deployment's Mosquitto does.
  const broker = await startEmbeddedBroker({
    port: 0,
    users: [
      { username: 'edge-r1', password: 'edge-pass-5d2', role: 'edge', robotId: 'r1' },
      { username: 'robot-r1', password: 'robot-pass-8e4', role: 'robot', robotId: 'r1' },
    ],
  });
  t.teardown(() => broker.close());
  const passwordFile = join(dir, 'edge.pw');
  await writeFile(passwordFile, 'edge-pass-5d2\n', { mode: 0o600 });
  const args = [
    ...['--profile', f.profile, '--hmac-key', f.hmacKey, '--firmware', f.firmware],
    ...['--mqtt', broker.url, '--username', 'edge-r1', '--password-file', passwordFile],
    ...['--state-dir', join(dir, 'state')],
  ];
  const robot = await connectClient(broker.url, { username: 'robot-r1', password: 'robot-pass-8e4' });
  t.teardown(() => robot.endAsync(true));
  const topics = robotTopics('r1');
  const inbox = new MessageInbox(robot);
  await robot.subscribeAsync(topics.cmd, { qos: 1 });

  const first = await startEdgeCli(t, args);
  for (const frame of f.fixture.passingFrames(1, Date.now()))
    await robot.publishAsync(topics.telemetry(frame.source), JSON.stringify(frame), { qos: 1 });
  // 100 points, 10 s: still running when the edge dies.
  await robot.publishAsync(topics.intent, JSON.stringify(f.fixture.smallMove('long-move', 100)), { qos: 1 });
  const move = await inbox.next<MotorCommand>(topics.cmd, (c) => c.intentId === 'long-move');
  const keys = new Map([[f.fixture.hmacKey.kid, f.fixture.hmacKey.key]]);
  const controller = acceptMotorCommand({ robotId: 'r1', epoch: 0, lastSeq: 0 }, move, {
    keys,
    nowMs: Date.now(),
  });
  t.ok(controller.accepted, 'the controller runs the move');
  if (!controller.accepted) return;

  first.child.kill('SIGKILL');
  await new Promise((resolve) => first.child.once('exit', resolve));
  await startEdgeCli(t, args);
  const stop = await inbox.next<MotorCommand>(
    topics.cmd,
    (c) => c.setpoints.kind === 'stop' && c.seq > move.seq,
  );
  t.match(stop.setpoints, { kind: 'stop', reason: /edge started/ });
  const halted = acceptMotorCommand(controller.state, stop, { keys, nowMs: Date.now() });
  t.ok(halted.accepted, 'the controller accepts the STOP: epoch and seq beyond the old process');
});
