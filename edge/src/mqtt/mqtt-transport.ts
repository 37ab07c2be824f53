/**
 * The edge's MQTT client (mqtt.js 5, MQTT 3.1.1 so aedes and Mosquitto alike accept it). Subscribes to
 * one robot's `intent`, `telemetry/+` and `consent` topics; publishes signed commands on `cmd` with QoS 1
 * and never retained (ARCHITECTURE.md §4), and verdict events on `verdict`.
 *
 * Clean session: messages sent while the edge was away are not replayed to it. An intent queued during
 * an outage would otherwise be judged long after its planner gave up on it.
 *
 * Retained messages are not taken: a broker hands its retained message to every new subscription
 * ([MQTT-3.3.1-6]), and mqtt.js resubscribes on every reconnect, so a retained intent (which carries no time)
 * would be signed again after each blip of the link, however old; a retained consent or frame is no better.
 * The embedded broker and deploy/mosquitto.conf refuse retained publishes, but `--mqtt` takes any broker (the
 * machine's Mosquitto retains by default), so the edge drops them itself ([MQTT-3.3.1-9]: a delivery from a
 * retained store carries RETAIN 1; one forwarded live carries 0) and reports each.
 *
 * A command is never put on the wire after its `validUntil`: publishCommand checks the clock at the moment
 * it hands the command to the socket (a command can wait behind the outbox's fsync, or behind a starved
 * event loop), and refuses rather than queues while the connection is down, since mqtt.js would otherwise
 * send the queue on reconnect, however late.
 *
 * A command counts as delivered only when the broker acknowledges it (QoS 1 PUBACK) before its `validUntil`.
 * A link can be half-open: the socket looks connected, writes are buffered, and nothing arrives (a dead
 * Wi-Fi access point, a frozen NAT). A STOP written into it would reach the controller after it expired, to
 * be refused, while the robot ran on; so publishCommand fails at `validUntil` without a PUBACK, and the node
 * signs a fresh STOP (edge-node.ts: a STOP not taken is owed). The keepalive (2 s, not mqtt.js's 60 s) makes
 * mqtt.js notice such a link and reconnect within about three seconds.
 */
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import { type MotorCommand, type RobotTopics, robotTopics, type VerdictEvent } from '@pentagate/protocol';
import { EdgeRuntimeError } from '../node/runtime-error.js';
import { TransportError } from '../transport/transport-error.js';
import type { InboundHandler, RobotTransport } from '../transport/robot-transport.js';
import { CommandExpiredError } from './command-expired-error.js';

export interface MqttTlsOptions {
  /** PEM CA bundle that signed the broker's certificate. */
  ca?: Uint8Array;
  /** PEM client certificate and key, for brokers that authenticate clients by certificate. */
  cert?: Uint8Array;
  key?: Uint8Array;
  /** Refuse a broker certificate that does not verify (default true; false only for lab brokers). */
  rejectUnauthorized?: boolean;
}

/** MQTT keepalive, s (MQTT 3.1.1 §3.1.2.10): a half-open link is dropped after 1.5 × this without a packet. */
export const DEFAULT_KEEPALIVE_S = 2;
/**
 * How long a verdict event may wait for its PUBACK, ms. Verdicts are in the audit outbox already; a publish
 * that waits longer (link down or half-open) is given up rather than left pending, which held shutdown.
 */
export const VERDICT_ACK_TIMEOUT_MS = 5_000;
/**
 * How long after its validUntil a command's PUBACK may still come, ms: the broker acknowledges a command once it
 * has it, so even one that reached the controller in time is acknowledged half a round trip later.
 */
export const PUBACK_GRACE_MS = 50;
/** How long close() lets a graceful DISCONNECT take before it drops the socket, ms. */
export const CLOSE_GRACE_MS = 2_000;

export interface MqttTransportOptions {
  /** `mqtt://host:port` or `mqtts://host:port`. */
  url: string;
  robotId: string;
  username?: string;
  password?: string;
  /** Defaults to `<username>-<random>` (the embedded broker wants ids that start with the username). */
  clientId?: string;
  tls?: MqttTlsOptions;
  /** Wait between reconnect attempts, ms (default 1000). */
  reconnectPeriodMs?: number;
  /** MQTT keepalive, s (default DEFAULT_KEEPALIVE_S). */
  keepaliveS?: number;
  /** How long the first connection may take before `connect` fails, ms (default 10000). */
  connectTimeoutMs?: number;
  /** Called for each command refused because its validUntil had passed (metrics, log). */
  onCommandExpired?: (command: MotorCommand, lateMs: number) => void;
  /** Wall clock, ms (tests); default Date.now, the clock validUntil is stamped with. */
  clock?: () => number;
  /** Called on connection state changes, for the log. */
  onStateChange?: (state: 'connected' | 'reconnecting' | 'offline', detail?: string) => void;
  /** Called for each retained message the broker delivered and the transport dropped, for the log. */
  onRetainedDropped?: (topic: string) => void;
}

export class MqttTransport implements RobotTransport {
  readonly topics: RobotTopics;
  readonly #client: MqttClient;
  readonly #clock: () => number;
  readonly #onCommandExpired: MqttTransportOptions['onCommandExpired'];
  #handler: InboundHandler = () => {};

  private constructor(client: MqttClient, topics: RobotTopics, options: MqttTransportOptions) {
    this.#client = client;
    this.topics = topics;
    this.#clock = options.clock ?? Date.now;
    this.#onCommandExpired = options.onCommandExpired;
    client.on('message', (topic, payload, packet) => {
      if (packet.retain) options.onRetainedDropped?.(topic);
      else this.#handler(topic, payload);
    });
  }

  /** Connects, subscribes, and resolves once the broker granted every subscription. */
  static async connect(options: MqttTransportOptions): Promise<MqttTransport> {
    const topics = robotTopics(options.robotId);
    const username = options.username ?? `edge-${options.robotId}`;
    const clientOptions: IClientOptions = {
      protocolVersion: 4,
      clean: true,
      clientId: options.clientId ?? `${username}-${Math.random().toString(16).slice(2, 10)}`,
      reconnectPeriod: options.reconnectPeriodMs ?? 1000,
      keepalive: options.keepaliveS ?? DEFAULT_KEEPALIVE_S,
      connectTimeout: options.connectTimeoutMs ?? 10_000,
      resubscribe: true,
      ...(options.username !== undefined ? { username: options.username } : {}),
      ...(options.password !== undefined ? { password: options.password } : {}),
      ...(options.tls?.ca ? { ca: Buffer.from(options.tls.ca) } : {}),
      ...(options.tls?.cert ? { cert: Buffer.from(options.tls.cert) } : {}),
      ...(options.tls?.key ? { key: Buffer.from(options.tls.key) } : {}),
      rejectUnauthorized: options.tls?.rejectUnauthorized ?? true,
    };
    const client = mqtt.connect(options.url, clientOptions);
    disableNagle(client);
    // Listeners first: an 'error' emitted with none attached would throw out of the event loop.
    client.on('connect', () => options.onStateChange?.('connected'));
    client.on('reconnect', () => options.onStateChange?.('reconnecting'));
    client.on('offline', () => options.onStateChange?.('offline'));
    client.on('error', (err) => options.onStateChange?.('offline', err.message));
    try {
      await firstConnection(client, options.url, options.connectTimeoutMs ?? 10_000);
      const filters = [topics.intent, topics.telemetryFilter, topics.consent];
      const granted = await client.subscribeAsync(filters, { qos: 1 }).catch((err: unknown) => {
        throw new EdgeRuntimeError(
          'MQTT_CONNECT_FAILED',
          `broker ${options.url} refused the subscriptions ${filters.join(', ')} (${(err as Error).message}); ` +
            `check that user ${username} may subscribe under ${topics.intent.replace(/\/intent$/, '/')}`,
        );
      });
      const refused = granted.filter((g) => g.qos === 128).map((g) => g.topic);
      if (refused.length > 0) {
        throw new EdgeRuntimeError(
          'MQTT_CONNECT_FAILED',
          `broker ${options.url} refused ${refused.join(', ')}`,
        );
      }
    } catch (err) {
      await client.endAsync(true);
      throw err;
    }
    return new MqttTransport(client, topics, options);
  }

  onMessage(handler: InboundHandler): void {
    this.#handler = handler;
  }

  async publishCommand(command: MotorCommand): Promise<void> {
    const nowMs = this.#clock();
    // Same rule as the controller's acceptMotorCommand: valid through validUntil, expired after it.
    if (nowMs > command.validUntil) {
      this.#onCommandExpired?.(command, nowMs - command.validUntil);
      throw new CommandExpiredError(command.seq, command.validUntil, nowMs);
    }
    if (!this.#client.connected) {
      throw new TransportError(
        'TRANSPORT_CLOSED',
        `command seq ${command.seq} not published: the MQTT connection is down (commands are not queued)`,
      );
    }
    // QoS 1: at least once; a duplicate is harmless because the controller refuses a repeated seq.
    const acknowledged = this.#client.publishAsync(this.topics.cmd, JSON.stringify(command), {
      qos: 1,
      retain: false,
    });
    await withinMs(
      acknowledged,
      command.validUntil - nowMs + PUBACK_GRACE_MS,
      () =>
        new TransportError(
          'PUBLISH_UNACKNOWLEDGED',
          `command seq ${command.seq}: the broker did not acknowledge it before its validUntil ${command.validUntil} ` +
            '(the link may be half-open); a controller would refuse it now',
        ),
    );
  }

  async publishVerdict(verdict: VerdictEvent): Promise<void> {
    if (!this.#client.connected) {
      throw new TransportError(
        'TRANSPORT_CLOSED',
        'verdict not published: the MQTT connection is down (it is in the audit outbox)',
      );
    }
    const acknowledged = this.#client.publishAsync(this.topics.verdict, JSON.stringify(verdict), {
      qos: 1,
      retain: false,
    });
    await withinMs(
      acknowledged,
      VERDICT_ACK_TIMEOUT_MS,
      () =>
        new TransportError(
          'PUBLISH_UNACKNOWLEDGED',
          `verdict not acknowledged by the broker within ${VERDICT_ACK_TIMEOUT_MS} ms (it is in the audit outbox)`,
        ),
    );
  }

  isConnected(): boolean {
    return this.#client.connected;
  }

  /**
   * Ends the session: with a DISCONNECT when the link is up and every publish acknowledged, else at once.
   * mqtt.js's graceful end waits for PUBACKs, which a dead or half-open link never brings, so a supervisor's
   * SIGTERM hung; a DISCONNECT that does not get through within CLOSE_GRACE_MS drops the socket.
   */
  async close(): Promise<void> {
    const client = this.#client;
    const graceful = client.connected && Object.keys(client.outgoing).length === 0;
    const ended = client.endAsync(!graceful);
    const timer = setTimeout(() => client.stream?.destroy(), CLOSE_GRACE_MS);
    try {
      await ended;
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * `work`, or `timeout()`'s error once `ms` have passed without it settling (at once when `ms` ≤ 0). Its
 * late outcome is dropped: a PUBACK after the deadline changes nothing the caller decided.
 *
 * The deadline is decided in the check phase (setImmediate), after the event loop's poll for I/O: after a
 * stall of the loop the timer phase runs first, and a PUBACK that came in during the stall, still unread in
 * the socket, would otherwise count as missing.
 */
function withinMs<T>(work: Promise<T>, ms: number, timeout: () => Error): Promise<T> {
  work.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => setImmediate(() => reject(timeout())), Math.max(0, ms));
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/**
 * Turns off Nagle's algorithm on every (re)connected socket. mqtt.js leaves it on, and then a STOP written
 * right after another packet waits for the broker's delayed ACK (~40 ms on Linux) before it leaves.
 */
export function disableNagle(client: MqttClient): void {
  const apply = () => {
    const stream = client.stream as { setNoDelay?: (noDelay: boolean) => unknown } | undefined;
    stream?.setNoDelay?.(true);
  };
  client.on('connect', apply);
  apply();
}

/** Resolves on the first CONNACK; rejects with a readable error on refusal, socket error or timeout. */
function firstConnection(client: MqttClient, url: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`no CONNACK within ${timeoutMs} ms`)), timeoutMs);
    const fail = (err: Error & { code?: unknown }) => {
      clearTimeout(timer);
      client.off('connect', ok);
      const refusal = typeof err.code === 'number' ? ` (CONNACK return code ${err.code})` : '';
      reject(
        new EdgeRuntimeError(
          'MQTT_CONNECT_FAILED',
          `cannot connect to MQTT broker ${url}: ${err.message}${refusal}`,
        ),
      );
    };
    const ok = () => {
      clearTimeout(timer);
      client.off('error', fail);
      resolve();
    };
    client.once('connect', ok);
    client.once('error', fail);
  });
}

/** The log line for a retained message the transport dropped (MqttTransportOptions.onRetainedDropped). */
export function logRetainedDropped(log: Pick<Logger, 'warn'>, topic: string): void {
  log.warn(
    { topic },
    'retained MQTT message dropped: intents, consent and telemetry are events, never state (disable retain on the broker: retain_available false)',
  );
}
