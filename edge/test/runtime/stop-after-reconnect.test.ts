/**
 * A STOP the node could not hand to the broker (its link was down: commands are refused, not queued) is owed
 * to the robot: once the link is back, the node publishes a fresh signed STOP. The gate forgets the motion as
 * it signs the STOP, so otherwise a controller that kept its own broker connection would run that motion on,
 * unmonitored, after the edge reconnected. Real broker; the edge reaches it through a TCP relay the test
 * cuts and restores.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MotorCommand } from '@pentagate/protocol';
import pino from 'pino';
import t from 'tap';
import { startEmbeddedBroker } from '../../src/broker/embedded-broker.js';
import { startEdgeNode } from '../../src/node/start-edge-node.js';
import { armFixture } from './helpers/arm-fixture.js';
import { startLongMove } from './helpers/long-move.js';

/** A TCP relay to `port` that can be cut (sockets destroyed, new ones refused) and restored on its port. */
async function relayTo(port: number) {
  const sockets = new Set<Socket>();
  const listen = (server: Server, at: number) =>
    new Promise<number>((resolve) =>
      server.listen(at, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
    );
  const make = () =>
    createServer((client) => {
      const upstream = connect(port, '127.0.0.1');
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
  let server = make();
  const relayPort = await listen(server, 0);
  return {
    port: relayPort,
    cut: () => {
      server.close();
      for (const s of sockets) s.destroy();
    },
    restore: async () => {
      server = make();
      await listen(server, relayPort);
    },
    close: () => {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}

t.test('a STOP the broker link could not take is published once the link is back', async (t) => {
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
  const { inbox, topics, move } = await startLongMove(
    t,
    broker.url,
    { username: 'robot-r1', password: 'robot-pw-4c8' },
    fixture,
  );

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
