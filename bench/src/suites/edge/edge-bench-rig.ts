/**
 * The edge benchmarks' rig: the embedded broker, the edge exactly as `pentagate edge run --mqtt
 * embedded:PORT` wires it (startEdgeNode, audit outbox on disk, logging off), and two robot-side clients: the
 * planner (publishes telemetry and intents) and the controller (subscribed to the signed commands).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEdgeLogger, startEmbeddedBroker, startEdgeNode } from '@pentagate/edge/commands';
import type { SequenceStore } from '@pentagate/edge';
import { robotTopics } from '@pentagate/protocol';
import type { MqttClient } from 'mqtt';
import { connect } from './mqtt-bench-clients.js';
import type { Ur5eCell } from './ur5e-cell.js';

/** Accounts on the rig's broker (username → password); `rtt` has the edge role so it may read telemetry. */
export const RIG_ACCOUNTS = {
  robot: 'bench-robot',
  rtt: 'bench-rtt',
} as const;

export interface EdgeBenchRig {
  brokerUrl: string;
  topics: ReturnType<typeof robotTopics>;
  planner: MqttClient;
  controller: MqttClient;
  /** Disconnects the clients, stops the edge and the broker, removes the state directory. */
  close(): Promise<void>;
}

export async function startEdgeBenchRig(
  cell: Ur5eCell,
  sequence: (stateDir: string) => SequenceStore,
): Promise<EdgeBenchRig> {
  const robotId = cell.profile.robotId;
  const topics = robotTopics(robotId);
  const stateDir = await mkdtemp(join(tmpdir(), 'pentagate-bench-edge-'));
  const broker = await startEmbeddedBroker({
    port: 0,
    users: [
      { username: 'edge', password: 'bench-edge', role: 'edge', robotId },
      { username: 'robot', password: RIG_ACCOUNTS.robot, role: 'robot', robotId },
      // Only an edge-role identity reads telemetry; this one receives the round-trip probes.
      { username: 'rtt', password: RIG_ACCOUNTS.rtt, role: 'edge', robotId },
    ],
  });
  const edge = await startEdgeNode({
    robotId,
    gate: cell.makeGate(Date.now, sequence(stateDir)),
    mqtt: { url: broker.url, username: 'edge', password: 'bench-edge' },
    stateDir,
    logger: createEdgeLogger({ level: 'silent' }),
    // a closed loop of intents as fast as the edge answers: the node's intent rate limit would refuse most
    maxIntentsPerSecond: 10_000,
  });
  const planner = await connect(broker.url, 'robot', RIG_ACCOUNTS.robot);
  const controller = await connect(broker.url, 'robot', RIG_ACCOUNTS.robot);
  await controller.subscribeAsync(topics.cmd, { qos: 1 });
  return {
    brokerUrl: broker.url,
    topics,
    planner,
    controller,
    async close() {
      await planner.endAsync(true);
      await controller.endAsync(true);
      await edge.stop('benchmark over');
      await broker.close();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}
