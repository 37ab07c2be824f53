/**
 * The edge on a serial line to a microcontroller (serialport 13): telemetry frames, intents and consent
 * envelopes come in, signed motor commands (and, if asked, verdict events) go out, each as one JSON object per
 * frame — newline-delimited or COBS-framed (edge/src/serial/serial-framing.ts). The controller checks every
 * command with `acceptMotorCommand` (@pentagate/crypto); the line itself is not trusted.
 *
 * What arrives is classified by shape: an object with `payloadType` is a consent envelope; `kind`
 * `joint-trajectory` or `base-twist` is an intent; anything else is telemetry (the gate's telemetry store
 * validates it). A frame that is not JSON, or does not decode, still reaches the node, which answers it with
 * a rejected-input verdict.
 *
 * Reconnects: when the port closes (USB unplugged, controller reset) the transport reopens it every
 * `reconnectPeriodMs` until `close()`. Commands published while the line is down are refused, not queued: a
 * stale command must not reach the motors later (and its validUntil would have passed anyway).
 */
import type { MotorCommand, VerdictEvent } from '@pentagate/protocol';
import { canonicalize, readJson } from '@pentagate/protocol';
import { SerialPort } from 'serialport';
import type { InboundHandler, RobotTransport } from '../transport/robot-transport.js';
import { TransportError } from '../transport/transport-error.js';
import { TypedInbound } from '../transport/typed-inbound.js';
import { FrameSplitter, type SerialFraming, encodeFrame } from './serial-framing.js';

export interface SerialTransportOptions {
  /** Device path: /dev/ttyACM0, /dev/serial/by-id/…, or a socat pseudo-terminal. */
  path: string;
  robotId: string;
  /** Default 115200. */
  baudRate?: number;
  /** Default 'ndjson'. */
  framing?: SerialFraming;
  /** Wait between reopen attempts, ms (default 1000). */
  reconnectPeriodMs?: number;
  /** Longest frame accepted, bytes (default 64 KiB, the node's inbound limit). */
  maxFrameBytes?: number;
  /** Also write verdict events to the line (default false: a controller needs only commands). */
  sendVerdicts?: boolean;
  onStateChange?: (state: 'connected' | 'reconnecting', detail?: string) => void;
}

export interface SerialCounters {
  framesIn: number;
  badFrames: number;
  commandsOut: number;
  reconnects: number;
}

function openPort(path: string, baudRate: number): Promise<SerialPort> {
  return new Promise((resolve, reject) => {
    const port = new SerialPort({ path, baudRate, autoOpen: false });
    port.open((err) => (err ? reject(err) : resolve(port)));
  });
}

export class SerialTransport implements RobotTransport {
  readonly #options: Required<Omit<SerialTransportOptions, 'onStateChange'>> &
    Pick<SerialTransportOptions, 'onStateChange'>;
  readonly #inbound: TypedInbound;
  #port: SerialPort | undefined;
  #splitter: FrameSplitter;
  #closing = false;
  #timer: NodeJS.Timeout | undefined;
  readonly counters: SerialCounters = { framesIn: 0, badFrames: 0, commandsOut: 0, reconnects: 0 };

  private constructor(options: SerialTransportOptions) {
    this.#options = {
      baudRate: 115_200,
      framing: 'ndjson',
      reconnectPeriodMs: 1000,
      maxFrameBytes: 64 * 1024,
      sendVerdicts: false,
      ...options,
    };
    this.#inbound = new TypedInbound(options.robotId);
    this.#splitter = new FrameSplitter(this.#options.framing, this.#options.maxFrameBytes);
  }

  /** Opens the line. Throws TransportError SERIAL_OPEN_FAILED when the first open fails (wrong path, busy). */
  static async open(options: SerialTransportOptions): Promise<SerialTransport> {
    const t = new SerialTransport(options);
    try {
      t.#attach(await openPort(options.path, t.#options.baudRate));
    } catch (err) {
      throw new TransportError(
        'SERIAL_OPEN_FAILED',
        `cannot open serial port ${options.path}: ${(err as Error).message}`,
      );
    }
    return t;
  }

  #attach(port: SerialPort): void {
    this.#port = port;
    this.#splitter = new FrameSplitter(this.#options.framing, this.#options.maxFrameBytes);
    port.on('data', (bytes: Buffer) => this.#onBytes(bytes));
    port.on('close', () => this.#onClose());
    port.on('error', () => {}); // a 'close' follows; errors are reported through onStateChange there
    this.#options.onStateChange?.('connected', this.#options.path);
  }

  #onClose(): void {
    this.#port = undefined;
    if (this.#closing) return;
    this.#options.onStateChange?.('reconnecting', `${this.#options.path} closed`);
    this.#scheduleReopen();
  }

  #scheduleReopen(): void {
    this.#timer = setTimeout(async () => {
      if (this.#closing) return;
      try {
        const port = await openPort(this.#options.path, this.#options.baudRate);
        if (this.#closing) {
          port.close();
          return;
        }
        this.counters.reconnects += 1;
        this.#attach(port);
      } catch (err) {
        this.#options.onStateChange?.('reconnecting', (err as Error).message);
        this.#scheduleReopen();
      }
    }, this.#options.reconnectPeriodMs);
    this.#timer.unref();
  }

  #onBytes(bytes: Uint8Array): void {
    for (const frame of this.#splitter.push(bytes)) {
      this.counters.framesIn += 1;
      if (!frame.ok) {
        this.counters.badFrames += 1;
        this.#inbound.raw(new TextEncoder().encode(`serial frame refused: ${frame.problem}`), 'serial');
        continue;
      }
      let value: unknown;
      try {
        value = readJson(frame.payload, { what: 'serial frame', maxBytes: this.#options.maxFrameBytes });
      } catch {
        this.counters.badFrames += 1;
        this.#inbound.raw(frame.payload, 'serial');
        continue;
      }
      const obj = (value ?? {}) as Record<string, unknown>;
      if (typeof obj.payloadType === 'string') this.#inbound.consent(value);
      else if (obj.kind === 'joint-trajectory' || obj.kind === 'base-twist') this.#inbound.intent(obj);
      else this.#inbound.telemetry(obj);
    }
  }

  onMessage(handler: InboundHandler): void {
    this.#inbound.setHandler(handler);
  }

  #write(json: string): Promise<void> {
    const port = this.#port;
    if (!port?.isOpen) {
      return Promise.reject(
        new TransportError('TRANSPORT_CLOSED', `serial port ${this.#options.path} is not open`),
      );
    }
    return new Promise((resolve, reject) => {
      port.write(Buffer.from(encodeFrame(this.#options.framing, json)), (err) => {
        if (err)
          reject(
            new TransportError(
              'TRANSPORT_CLOSED',
              `serial write to ${this.#options.path} failed: ${err.message}`,
            ),
          );
        else port.drain(() => resolve());
      });
    });
  }

  async publishCommand(command: MotorCommand): Promise<void> {
    await this.#write(canonicalize(command));
    this.counters.commandsOut += 1;
  }

  async publishVerdict(verdict: VerdictEvent): Promise<void> {
    if (this.#options.sendVerdicts) await this.#write(canonicalize(verdict));
  }

  isConnected(): boolean {
    return this.#port?.isOpen ?? false;
  }

  async close(): Promise<void> {
    this.#closing = true;
    clearTimeout(this.#timer);
    const port = this.#port;
    if (port?.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
    this.#port = undefined;
  }
}
