/**
 * Records what the edge decided into MCAP, so Foxglove shows it on the timeline beside the robot's own topics:
 *   /pentagate/verdict      JSON, every verdict event (schema: VerdictEvent)
 *   /pentagate/evidence     JSON, the telemetry frames the edge held when it decided (schema: VerdictEvidence)
 *   /pentagate/command      JSON, every signed command and STOP (schema: MotorCommand)
 *   /pentagate/diagnostics  CDR diagnostic_msgs/DiagnosticArray, one status per gate
 *   /pentagate/input        JSON, every inbound message as it arrived (edge run only)
 * Writes are queued: MCAP records must not interleave. The first write failure is kept and reported by `close`.
 */
import {
  MotorCommandSchema,
  type MotorCommand,
  TelemetryFrameSchema,
  type TelemetryFrame,
  VerdictEventSchema,
  type VerdictEvent,
} from '@pentagate/protocol';
import { ROS_TYPES } from '../ros/ros-types.js';
import { verdictToDiagnosticArray } from '../ros/ros-outputs.js';
import { TransportError } from '../transport/transport-error.js';
import { McapFileSink } from './mcap-file-sink.js';
import { RosbagWriter } from './rosbag-writer.js';

export const RECORDED_TOPICS = {
  verdict: '/pentagate/verdict',
  evidence: '/pentagate/evidence',
  command: '/pentagate/command',
  diagnostics: '/pentagate/diagnostics',
  input: '/pentagate/input',
} as const;

/** JSON Schema of an /pentagate/evidence message; `frames` are the latest accepted frame of every source. */
export const VerdictEvidenceSchema = {
  type: 'object',
  properties: {
    atMs: { type: 'integer', minimum: 0 },
    intentId: { type: 'string' },
    outcome: { type: 'string' },
    evidenceDigest: { type: 'string' },
    frames: { type: 'array', items: TelemetryFrameSchema },
  },
  required: ['atMs', 'outcome', 'frames'],
} as const;

export const InputSchema = {
  type: 'object',
  properties: { topic: { type: 'string' }, message: {} },
  required: ['topic', 'message'],
} as const;

export class VerdictRecorder {
  readonly path: string;
  readonly #sink: McapFileSink;
  readonly #bag: RosbagWriter;
  #queue: Promise<void> = Promise.resolve();
  #failure: Error | undefined;
  #closed = false;
  #count = 0;

  private constructor(path: string, sink: McapFileSink, bag: RosbagWriter) {
    this.path = path;
    this.#sink = sink;
    this.#bag = bag;
  }

  /** Creates a new recording at `path` (never overwrites). */
  static async create(path: string): Promise<VerdictRecorder> {
    const sink = await McapFileSink.create(path);
    try {
      const bag = await RosbagWriter.open({ writable: sink });
      await bag.jsonChannel(RECORDED_TOPICS.verdict, 'pentagate.VerdictEvent', VerdictEventSchema);
      await bag.jsonChannel(RECORDED_TOPICS.evidence, 'pentagate.VerdictEvidence', VerdictEvidenceSchema);
      await bag.jsonChannel(RECORDED_TOPICS.command, 'pentagate.MotorCommand', MotorCommandSchema);
      await bag.rosChannel(RECORDED_TOPICS.diagnostics, ROS_TYPES.diagnosticArray);
      await bag.jsonChannel(RECORDED_TOPICS.input, 'pentagate.InboundMessage', InputSchema);
      return new VerdictRecorder(path, sink, bag);
    } catch (err) {
      await sink.close().catch(() => {});
      throw new TransportError(
        'MCAP_WRITE_FAILED',
        `cannot start recording ${path}: ${(err as Error).message}`,
      );
    }
  }

  /** Verdicts recorded so far. */
  get verdicts(): number {
    return this.#count;
  }

  #enqueue(work: () => Promise<void>): Promise<void> {
    if (this.#closed)
      return Promise.reject(new TransportError('TRANSPORT_CLOSED', `recording ${this.path} is closed`));
    this.#queue = this.#queue.then(async () => {
      if (this.#failure) return;
      try {
        await work();
      } catch (err) {
        this.#failure = err as Error;
      }
    });
    return this.#queue;
  }

  /** Records a verdict, its diagnostics and the frames it was decided on, at `logTimeMs` (default: its atMs). */
  verdict(verdict: VerdictEvent, frames: readonly TelemetryFrame[], logTimeMs = verdict.atMs): Promise<void> {
    this.#count += 1;
    return this.#enqueue(async () => {
      await this.#bag.write(RECORDED_TOPICS.verdict, verdict, logTimeMs);
      await this.#bag.write(
        RECORDED_TOPICS.evidence,
        {
          atMs: verdict.atMs,
          ...(verdict.intentId ? { intentId: verdict.intentId } : {}),
          outcome: verdict.outcome,
          ...(verdict.evidenceDigest ? { evidenceDigest: verdict.evidenceDigest } : {}),
          frames,
        },
        logTimeMs,
      );
      await this.#bag.write(RECORDED_TOPICS.diagnostics, verdictToDiagnosticArray(verdict), logTimeMs);
    });
  }

  command(command: MotorCommand, logTimeMs = command.issuedAt): Promise<void> {
    return this.#enqueue(() => this.#bag.write(RECORDED_TOPICS.command, command, logTimeMs));
  }

  input(topic: string, message: unknown, logTimeMs: number): Promise<void> {
    return this.#enqueue(() => this.#bag.write(RECORDED_TOPICS.input, { topic, message }, logTimeMs));
  }

  /** Finishes the file (summary, footer, fsync). Throws MCAP_WRITE_FAILED if any write failed. */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#queue;
    this.#closed = true;
    try {
      if (!this.#failure) await this.#bag.end();
    } finally {
      await this.#sink.close();
    }
    if (this.#failure) {
      throw new TransportError(
        'MCAP_WRITE_FAILED',
        `recording ${this.path} is incomplete: ${this.#failure.message}`,
      );
    }
  }
}
