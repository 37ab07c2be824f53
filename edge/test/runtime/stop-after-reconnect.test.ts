/**
 * A STOP the node could not hand to the broker (its link was down: commands are refused, not queued) is owed
 * to the robot: once the link is back, the node publishes a fresh signed STOP. The gate forgets the motion as
 * it signs the STOP, so otherwise a controller that kept its own broker connection would run that motion on,
 * unmonitored, after the edge reconnected. Real broker; the edge reaches it through a TCP relay the test
 * cuts and restores.
 *
 * A half-open link is worse: the socket stays open and takes the STOP, which then reaches the controller after
 * its validUntil, to be refused, while the robot runs on. A STOP the broker does not acknowledge before its
 * validUntil is owed too, and signed afresh until one is.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MotorCommand } from '@pentagate/protocol';
import pino from 'pino';
import t, { type Test } from 'tap';
import { startEmbeddedBroker } from '../../src/broker/embedded-broker.js';
import { startEdgeNode } from '../../src/node/start-edge-node.js';
import { armFixture } from './helpers/arm-fixture.js';
import { startLongMove } from './helpers/long-move.js';
import { relayTo } from './helpers/tcp-relay.js';

/** A broker, a relay the edge reaches it through, the edge, and a 10 s move in progress. */
async function edgeBehindRelay(t: Test) {
  const broker = await startEmbeddedBroker({
    port: 0,
    users: [
      { username: 'edge-r1', password: 'edge-pw-4c8', role: 'edge', robotId: 'r1' },
      { username: 'robot-r1', password: 'robot-pw-4c8', role: 'robot', robotId: 'r1' },
    ],
  });
  t.teardown(() => broker.close());
  const relay = await relayTo(broker.port);
  t.teardown(() => relay.close());
  const stateDir = await mkdtemp(join(tmpdir(), 'pentagate-relink-'));
  t.teardown(() => rm(stateDir, { recursive: true, force: true }));
  const fixture = armFixture({ robotId: 'r1', fastSourceMaxAgeMs: 1_000 });
  const edge = await startEdgeNode({
    robotId: 'r1',
    gate: fixture.makeGate(),
    mqtt: {
      url: `mqtt://127.0.0.1:${relay.port}`,
      username: 'edge-r1',
      password: 'edge-pw-4c8',
      reconnectPeriodMs: 200,
    },
    stateDir,
    logger: pino({ level: 'silent' }),
  });
  t.teardown(() => edge.stop());
  // The controller's own connection to the broker is not through the relay: it stays up. 100 points, 10 s:
  // still running when the link comes back.
  const longMove = await startLongMove(
    t,
    broker.url,
    { username: 'robot-r1', password: 'robot-pw-4c8' },
    fixture,
  );
  return { relay, edge, ...longMove };
}

t.test('a STOP the broker link could not take is published once the link is back', async (t) => {
  const { relay, inbox, topics, move } = await edgeBehindRelay(t);
  // The edge's link goes down; its sources turn stale after 1 s and the gate signs a STOP it cannot send.
  relay.cut();
  await new Promise((r) => setTimeout(r, 2_000));
  await relay.restore();
  const stop = await inbox.next<MotorCommand>(
    topics.cmd,
    (c) => c.setpoints.kind === 'stop' && c.seq > move.seq,
    3_000,
  );
  t.ok(stop.epoch > move.epoch, 'the STOP carries a newer epoch than the move');
});

t.test('a STOP written into a half-open link is signed again until one arrives in time', async (t) => {
  const { relay, inbox, topics, move } = await edgeBehindRelay(t);
  // The link holds every byte, open sockets and all: the sources turn stale after 1 s, and the STOP the gate
  // signs (valid 500 ms) waits in the relay past its validUntil.
  relay.freeze();
  await new Promise((r) => setTimeout(r, 2_500));
  relay.thaw();
  const arrivals: { stop: MotorCommand; atMs: number }[] = [];
  // Each late STOP is re-signed once its PUBACK deadline passes; on a loaded CI host (two suites at once)
  // the first few can still be late while the reconnected link drains, so the bound is generous.
  const deadline = Date.now() + 10_000;
  while (!arrivals.some((a) => a.atMs <= a.stop.validUntil) && Date.now() < deadline) {
    const stop = await inbox
      .next<MotorCommand>(topics.cmd, (c) => c.setpoints.kind === 'stop' && c.seq > move.seq, 5_000)
      .catch(() => undefined);
    if (stop) arrivals.push({ stop, atMs: Date.now() });
  }
  t.ok(arrivals.length > 0, 'STOPs reach the controller once the link thaws');
  t.ok(
    arrivals.some((a) => a.atMs <= a.stop.validUntil),
    `a STOP arrives before its validUntil, so the controller takes it (${arrivals
      .map((a) => `seq ${a.stop.seq}: ${a.atMs - a.stop.validUntil} ms after validUntil`)
      .join('; ')})`,
  );
});

t.test('the edge shuts down while its broker link is down or half-open', async (t) => {
  // Before, stop() waited for PUBACKs that never came (mqtt.js's graceful end), and SIGTERM hung the process.
  for (const disturb of ['cut', 'freeze'] as const) {
    const { relay, edge } = await edgeBehindRelay(t);
    relay[disturb]();
    // past the sources' 1 s: the stale-data STOP and its verdict are signed while the link is down
    await new Promise((r) => setTimeout(r, 1_500));
    const startedMs = Date.now();
    const stopped = await Promise.race([
      edge.stop().then(() => true),
      new Promise<false>((r) => setTimeout(() => r(false), 15_000)),
    ]);
    t.ok(stopped, `${disturb}: stop() returns (${Date.now() - startedMs} ms)`);
    relay.thaw();
  }
});
