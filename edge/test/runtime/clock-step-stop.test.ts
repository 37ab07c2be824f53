/**
 * The gate measures frame ages and a motion's end on the wall clock. When that clock steps (an NTP or PTP step,
 * an operator setting the time) while a motion runs, a forward step makes the motion look finished, so its
 * monitoring ended silently and the robot ran on unwatched; the node stops the robot instead. Real broker,
 * real sockets, the real gate; only the wall clock the node reads is stepped.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MotorCommand } from '@pentagate/protocol';
import t from 'tap';
import { startEmbeddedBroker } from '../../src/broker/embedded-broker.js';
import { MqttTransport } from '../../src/mqtt/mqtt-transport.js';
import { EdgeNode } from '../../src/node/edge-node.js';
import { EdgeMetrics } from '../../src/observability/edge-metrics.js';
import { createEdgeLogger } from '../../src/observability/logger.js';
import { AuditOutbox } from '../../src/outbox/audit-outbox.js';
import { armFixture } from './helpers/arm-fixture.js';
import { startLongMove } from './helpers/long-move.js';

t.test('a step of the wall clock during a motion stops the robot', async (t) => {
  const broker = await startEmbeddedBroker({
    port: 0,
    users: [
      { username: 'edge-r1', password: 'edge-pass-3f7', role: 'edge', robotId: 'r1' },
      { username: 'robot-r1', password: 'robot-pass-9a1', role: 'robot', robotId: 'r1' },
    ],
  });
  t.teardown(() => broker.close());
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-clock-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  // Frames stay fresh for a minute: only the step may stop the motion here.
  const fixture = armFixture({ robotId: 'r1', fastSourceMaxAgeMs: 60_000 });
  let stepMs = 0;
  const clock = () => Date.now() + stepMs;
  const transport = await MqttTransport.connect({
    url: broker.url,
    robotId: 'r1',
    username: 'edge-r1',
    password: 'edge-pass-3f7',
  });
  const node = new EdgeNode({
    robotId: 'r1',
    gate: fixture.makeGate(undefined, clock),
    transport,
    outbox: await AuditOutbox.open(join(dir, 'outbox.jsonl')),
    metrics: new EdgeMetrics(),
    logger: createEdgeLogger({ level: 'silent' }),
    clock,
  });
  node.start();
  t.teardown(() => node.stop());
  // 100 points, 10 s.
  const { inbox, topics, move } = await startLongMove(
    t,
    broker.url,
    { username: 'robot-r1', password: 'robot-pass-9a1' },
    fixture,
  );

  stepMs = 30_000; // past the motion's end on the stepped clock, while the robot still moves
  const stop = await inbox.next<MotorCommand>(
    topics.cmd,
    (c) => c.setpoints.kind === 'stop' && c.seq > move.seq,
    2_000,
  );
  t.match(stop.setpoints, { kind: 'stop', reason: /clock stepped forward/ });
});
