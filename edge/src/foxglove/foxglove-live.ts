/**
 * The edge live in Foxglove: a Foxglove WebSocket protocol server (@foxglove/ws-protocol on `ws`; Foxglove's
 * "Foxglove WebSocket" connection) that streams what the edge decides, on the same channels, encodings and schemas
 * `--record` writes (verdict-recorder.ts), so a layout made for a recording works live:
 *   /pentagate/verdict      JSON (jsonschema pentagate.VerdictEvent)
 *   /pentagate/evidence     JSON (pentagate.VerdictEvidence): the telemetry frames the edge held when it decided
 *   /pentagate/command      JSON (pentagate.MotorCommand): every signed command and STOP
 *   /pentagate/diagnostics  CDR diagnostic_msgs/msg/DiagnosticArray (ros2msg), one status per gate
 *   /pentagate/input        JSON (pentagate.InboundMessage): every inbound message
 * Messages go only to clients subscribed to a channel; nothing is queued for absent clients. The server listens on
 * 127.0.0.1 unless told otherwise: it shows commands and telemetry, so exposing it is a deliberate choice.
 */
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { parse as parseMsgDefinition } from '@foxglove/rosmsg';
import { MessageWriter } from '@foxglove/rosmsg2-serialization';
import type * as WsProtocol from '@foxglove/ws-protocol';
import {
  MotorCommandSchema,
  type MotorCommand,
  type TelemetryFrame,
  VerdictEventSchema,
  type VerdictEvent,
} from '@pentagate/protocol';
import { WebSocketServer } from 'ws';
import { verdictToDiagnosticArray } from '../ros/ros-outputs.js';
import { ROS_TYPES } from '../ros/ros-types.js';
import { ros2msgSchema } from '../ros/ros-message-definitions.js';
import { InputSchema, RECORDED_TOPICS, VerdictEvidenceSchema } from '../mcap/verdict-recorder.js';
import { TransportError } from '../transport/transport-error.js';

export interface FoxgloveLiveOptions {
  /** 0 = any free port. */
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
  robotId: string;
}

// The package's ESM build names its classes only on the CommonJS default export; load the CommonJS build.
const { FoxgloveServer } = createRequire(import.meta.url)('@foxglove/ws-protocol') as typeof WsProtocol;
type FoxgloveServer = InstanceType<typeof FoxgloveServer>;

const NS_PER_MS = 1_000_000n;

export class FoxgloveLive {
  readonly url: string;
  readonly #server: FoxgloveServer;
  readonly #wss: WebSocketServer;
  readonly #channels: Record<keyof typeof RECORDED_TOPICS, number>;
  readonly #diagnostics: MessageWriter;
  readonly #encoder = new TextEncoder();

  private constructor(
    url: string,
    server: FoxgloveServer,
    wss: WebSocketServer,
    channels: Record<keyof typeof RECORDED_TOPICS, number>,
  ) {
    this.url = url;
    this.#server = server;
    this.#wss = wss;
    this.#channels = channels;
    const text = ros2msgSchema(ROS_TYPES.diagnosticArray) as string;
    this.#diagnostics = new MessageWriter(parseMsgDefinition(text, { ros2: true }));
  }

  /** Starts listening. Throws TransportError FOXGLOVE_LISTEN_FAILED naming the port when it is taken. */
  static async start(options: FoxgloveLiveOptions): Promise<FoxgloveLive> {
    const server = new FoxgloveServer({
      name: `pentagate edge ${options.robotId}`,
      metadata: { robotId: options.robotId },
    });
    const json = (topic: string, schemaName: string, schema: unknown) =>
      server.addChannel({
        topic,
        encoding: 'json',
        schemaName,
        schema: JSON.stringify(schema),
        schemaEncoding: 'jsonschema',
      });
    const channels = {
      verdict: json(RECORDED_TOPICS.verdict, 'pentagate.VerdictEvent', VerdictEventSchema),
      evidence: json(RECORDED_TOPICS.evidence, 'pentagate.VerdictEvidence', VerdictEvidenceSchema),
      command: json(RECORDED_TOPICS.command, 'pentagate.MotorCommand', MotorCommandSchema),
      diagnostics: server.addChannel({
        topic: RECORDED_TOPICS.diagnostics,
        encoding: 'cdr',
        schemaName: ROS_TYPES.diagnosticArray,
        schema: ros2msgSchema(ROS_TYPES.diagnosticArray) as string,
        schemaEncoding: 'ros2msg',
      }),
      input: json(RECORDED_TOPICS.input, 'pentagate.InboundMessage', InputSchema),
    };
    const host = options.host ?? '127.0.0.1';
    const wss = new WebSocketServer({
      port: options.port,
      host,
      handleProtocols: (protocols) => server.handleProtocols(protocols),
    });
    await new Promise<void>((resolve, reject) => {
      wss.once('listening', resolve);
      wss.once('error', (err: NodeJS.ErrnoException) =>
        reject(
          new TransportError(
            'FOXGLOVE_LISTEN_FAILED',
            err.code === 'EADDRINUSE'
              ? `port ${options.port} is in use: pass --foxglove-port with another port`
              : `Foxglove WebSocket server cannot listen on ${host}:${options.port}: ${err.message}`,
          ),
        ),
      );
    });
    wss.on('connection', (conn, req) => {
      server.handleConnection(conn, `${req.socket.remoteAddress}:${req.socket.remotePort}`);
    });
    server.on('error', () => {}); // a client's protocol error must not bring the edge down
    const port = (wss.address() as AddressInfo).port;
    return new FoxgloveLive(`ws://${host}:${port}`, server, wss, channels);
  }

  #send(channel: keyof typeof RECORDED_TOPICS, atMs: number, payload: Uint8Array<ArrayBuffer>): void {
    this.#server.sendMessage(this.#channels[channel], BigInt(Math.round(atMs)) * NS_PER_MS, payload);
  }

  #json(channel: keyof typeof RECORDED_TOPICS, atMs: number, value: unknown): void {
    this.#send(channel, atMs, this.#encoder.encode(JSON.stringify(value)));
  }

  /** A verdict, the frames it was decided on and its diagnostics. */
  async verdict(
    verdict: VerdictEvent,
    frames: readonly TelemetryFrame[],
    atMs = verdict.atMs,
  ): Promise<void> {
    this.#json('verdict', atMs, verdict);
    this.#json('evidence', atMs, {
      atMs: verdict.atMs,
      ...(verdict.intentId ? { intentId: verdict.intentId } : {}),
      outcome: verdict.outcome,
      ...(verdict.evidenceDigest ? { evidenceDigest: verdict.evidenceDigest } : {}),
      frames,
    });
    // CdrWriter writes into a new ArrayBuffer, never a shared one, as sendMessage's BufferSource requires
    const diagnostics = this.#diagnostics.writeMessage(verdictToDiagnosticArray(verdict));
    this.#send('diagnostics', atMs, diagnostics as Uint8Array<ArrayBuffer>);
  }

  async command(command: MotorCommand, atMs = command.issuedAt): Promise<void> {
    this.#json('command', atMs, command);
  }

  async input(topic: string, message: unknown, atMs: number): Promise<void> {
    this.#json('input', atMs, { topic, message });
  }

  async close(): Promise<void> {
    for (const client of this.#wss.clients) client.terminate();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
  }
}
