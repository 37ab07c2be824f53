/**
 * A RobotTransport decorator for `pentagate edge run --record OUT.mcap`: passes everything through unchanged and
 * hands every inbound message, verdict and command to a DecisionSink (the MCAP VerdictRecorder, the Foxglove live
 * server, or both), with the latest telemetry
 * frame received per source as each verdict's evidence (the verdict's evidenceDigest identifies the frames the
 * gates actually used among them).
 *
 * Recording never delays the edge: the node's handler and publishes run first and the writes are queued; a
 * failing disk is reported when the recording is closed, and never stops a STOP.
 */
import type { MotorCommand, TelemetryFrame, VerdictEvent } from '@pentagate/protocol';
import { parseRobotTopic, readJson } from '@pentagate/protocol';
import type { InboundHandler, RobotTransport } from '../transport/robot-transport.js';
import type { DecisionSink } from './decision-sink.js';

const MAX_RECORDED_INPUT_BYTES = 64 * 1024;

export class McapRecordingTransport implements RobotTransport {
  readonly #inner: RobotTransport;
  readonly #recorder: DecisionSink;
  readonly #clock: () => number;
  readonly #latest = new Map<string, TelemetryFrame>();

  constructor(inner: RobotTransport, recorder: DecisionSink, clock: () => number = Date.now) {
    this.#inner = inner;
    this.#recorder = recorder;
    this.#clock = clock;
  }

  onMessage(handler: InboundHandler): void {
    this.#inner.onMessage((topic, payload) => {
      handler(topic, payload);
      this.#record(topic, payload);
    });
  }

  #record(topic: string, payload: Uint8Array): void {
    let message: unknown;
    try {
      if (payload.byteLength > MAX_RECORDED_INPUT_BYTES) throw new Error('too large');
      message = readJson(payload, { what: 'recorded input', maxBytes: MAX_RECORDED_INPUT_BYTES });
    } catch {
      message = { unparsed: `${payload.byteLength} bytes that are not JSON (or are too large to record)` };
    }
    const where = parseRobotTopic(topic);
    const source = (message as { source?: unknown } | null)?.source;
    if (where?.kind === 'telemetry' && typeof source === 'string' && source === where.source) {
      this.#latest.set(source, message as TelemetryFrame);
    }
    this.#recorder.input(topic, message, this.#clock()).catch(() => {});
  }

  // Recorded whether or not the wire took it: the recording shows what the edge decided and tried to send.
  async publishCommand(command: MotorCommand): Promise<void> {
    try {
      await this.#inner.publishCommand(command);
    } finally {
      this.#recorder.command(command, this.#clock()).catch(() => {});
    }
  }

  async publishVerdict(verdict: VerdictEvent): Promise<void> {
    try {
      await this.#inner.publishVerdict(verdict);
    } finally {
      this.#recorder.verdict(verdict, [...this.#latest.values()], this.#clock()).catch(() => {});
    }
  }

  isConnected(): boolean {
    return this.#inner.isConnected();
  }

  /** Closes the inner transport, then finishes the recording (throws MCAP_WRITE_FAILED if a write failed). */
  async close(): Promise<void> {
    try {
      await this.#inner.close();
    } finally {
      await this.#recorder.close();
    }
  }
}
