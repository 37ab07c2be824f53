/**
 * The thing a scenario runs against: a broker and an edge serving one robot, with MQTT accounts for the
 * simulated robot, its proximity sensors and its operator. The real one is the `pentagate edge run` child
 * process with its embedded broker; tests may supply a stand-in (the deliberately unsafe edge that proves
 * expectations can fail).
 */
import { createServer } from 'node:net';
import type { RobotProfile } from '@pentagate/protocol';
import { proximitySources } from '../edge/broker-accounts.js';
import { EdgeProcess } from '../edge/edge-process.js';
import type { RobotCredentials } from '../setup/robot-credentials.js';
import type { MqttEndpoint } from '../transport/mqtt-connection.js';

export interface RobotCell {
  /** Publishes the robot's telemetry and reads its commands (and, without `planner`, plans too). */
  robot: MqttEndpoint;
  /**
   * Publishes intents and reads verdicts; without it the robot's account does. A sim cell's planner may publish
   * nothing else (cell-broker-accounts.ts).
   */
  planner?: MqttEndpoint;
  /** Publishes the proximity sources; without it the robot's account does (a broker that binds none). */
  sensor?: MqttEndpoint;
  operator: MqttEndpoint;
  /** What the edge printed, for a failed run's report. */
  log(): string;
  /** False once the edge behind this cell has exited (a pool then starts a new one). */
  alive(): boolean;
  close(): Promise<void>;
}

export type RobotCellFactory = (credentials: RobotCredentials, profile: RobotProfile) => Promise<RobotCell>;

/** A TCP port nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The real edge: `pentagate edge run … --mqtt embedded:PORT` as a child process; linked to a cloud
 * (`--cloud URL --cloud-key-file F`) when `cloud` is given.
 */
export function spawnedEdgeCell(port?: number, cloud?: { url: string; keyPath: string }): RobotCellFactory {
  return async (credentials, profile) => {
    const edge = await EdgeProcess.start({
      credentials,
      robotId: profile.robotId,
      sensorSources: proximitySources(profile),
      mqttPort: port ?? (await freePort()),
      ...(cloud ? { cloud } : {}),
    });
    return {
      robot: edge.accounts.robot,
      ...(edge.accounts.sensor ? { sensor: edge.accounts.sensor } : {}),
      operator: edge.accounts.operator,
      log: () => edge.log(),
      alive: () => edge.child.exitCode === null && edge.child.signalCode === null,
      close: async () => {
        await edge.stop();
      },
    };
  };
}
