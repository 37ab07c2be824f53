/**
 * Assembles a running edge from its parts: audit outbox, transport (MQTT, or one the caller opened: ROS 2,
 * serial, several combined), metrics (and their HTTP server when a port is given) and the EdgeNode. `pentagate edge run`, the tests and the benchmark all start the
 * edge through here, so they run the same wiring.
 */
import { join } from 'node:path';
import type { Logger } from 'pino';
import { logRetainedDropped, MqttTransport, type MqttTransportOptions } from '../mqtt/mqtt-transport.js';
import type { RobotTransport } from '../transport/robot-transport.js';
import { EdgeMetrics } from '../observability/edge-metrics.js';
import { type ObservabilityServer, startObservabilityServer } from '../observability/observability-server.js';
import { AuditOutbox } from '../outbox/audit-outbox.js';
import type { EdgeGatePort } from './edge-gate-port.js';
import { EdgeNode } from './edge-node.js';

export interface StartEdgeNodeOptions {
  robotId: string;
  gate: EdgeGatePort;
  /** Broker connection; `robotId` is taken from above. Exactly one of `mqtt` and `transport`. */
  mqtt?: Omit<MqttTransportOptions, 'robotId'>;
  /** A transport already open (ROS 2, serial, combined); the edge node closes it on stop. */
  transport?: RobotTransport;
  /** Directory for the audit outbox (`outbox.jsonl` and its cursor). */
  stateDir: string;
  logger: Logger;
  /** Port for /metrics and /healthz; undefined = no HTTP server, 0 = any free port. */
  metricsPort?: number;
  metricsHost?: string;
  consentCheckPeriodMs?: number;
  monitorPeriodMs?: number;
  /** Window over which refusals of one kind from one source are summarised, ms (default 10,000). */
  refusalWindowMs?: number;
  /** Intents a second the node judges from its transports (default 50, burst 100; 0 = the default). */
  maxIntentsPerSecond?: number;
  /** Largest burst of intents judged at once (default 2 s of the rate). */
  intentBurst?: number;
  /** Wraps the MQTT transport before the node uses it (e.g. McapRecordingTransport for --record). */
  wrapTransport?: (transport: RobotTransport) => RobotTransport;
}

export interface RunningEdge {
  node: EdgeNode;
  transport: RobotTransport;
  outbox: AuditOutbox;
  metrics: EdgeMetrics;
  observability: ObservabilityServer | undefined;
  /** Graceful shutdown: STOP, drain, flush the outbox, close the transport and the HTTP server. */
  stop(reason?: string): Promise<void>;
}

export async function startEdgeNode(options: StartEdgeNodeOptions): Promise<RunningEdge> {
  const log = options.logger;
  const outbox = await AuditOutbox.open(join(options.stateDir, 'outbox.jsonl'));
  if (outbox.repair) {
    log.warn({ ...outbox.repair }, 'audit outbox: cut a torn last line left by power loss');
  }
  const metrics = new EdgeMetrics();
  let transport: RobotTransport;
  try {
    if (options.transport) transport = options.transport;
    else if (options.mqtt) {
      transport = await MqttTransport.connect({
        ...options.mqtt,
        robotId: options.robotId,
        onCommandExpired: (command, lateMs) => {
          const kind = command.setpoints.kind === 'stop' ? 'stop' : 'motion';
          metrics.recordCommandExpired(kind);
          log.error({ seq: command.seq, kind, lateMs }, 'command expired before it could be published');
        },
        onStateChange: (state, detail) =>
          log[state === 'connected' ? 'info' : 'warn']({ state, detail }, 'mqtt'),
        onRetainedDropped: (topic) => logRetainedDropped(log, topic),
      });
    } else throw new Error('startEdgeNode: give mqtt or transport');
  } catch (err) {
    await outbox.close();
    throw err;
  }
  const node = new EdgeNode({
    robotId: options.robotId,
    gate: options.gate,
    transport: options.wrapTransport ? options.wrapTransport(transport) : transport,
    outbox,
    metrics,
    logger: log,
    ...(options.consentCheckPeriodMs !== undefined
      ? { consentCheckPeriodMs: options.consentCheckPeriodMs }
      : {}),
    ...(options.monitorPeriodMs !== undefined ? { monitorPeriodMs: options.monitorPeriodMs } : {}),
    ...(options.refusalWindowMs !== undefined ? { refusalWindowMs: options.refusalWindowMs } : {}),
    ...(options.maxIntentsPerSecond !== undefined
      ? { maxIntentsPerSecond: options.maxIntentsPerSecond }
      : {}),
    ...(options.intentBurst !== undefined ? { intentBurst: options.intentBurst } : {}),
  });
  let observability: ObservabilityServer | undefined;
  if (options.metricsPort !== undefined) {
    try {
      observability = await startObservabilityServer({
        port: options.metricsPort,
        ...(options.metricsHost !== undefined ? { host: options.metricsHost } : {}),
        metrics,
        health: () => node.health(),
      });
    } catch (err) {
      await transport.close();
      await outbox.close();
      throw err;
    }
  }
  node.start();
  return {
    node,
    transport,
    outbox,
    metrics,
    observability,
    async stop(reason) {
      await node.stop(reason);
      await observability?.close();
    },
  };
}
