/**
 * The simulated motor controller — the project's own test double for robot hardware (the ros2_control
 * `mock_components` habit). It takes raw command frames from any link (MQTT, serial, or an attacker on the
 * wire), accepts a command only through the shared `acceptMotorCommand` (ARCHITECTURE.md §4), counts every refusal
 * by reason, executes accepted setpoints, halts on a signed STOP, and halts on its own when no valid command
 * has arrived for `watchdogMs` while a motion runs (a motion must not outlive the gate that signed it).
 */
import { type ControllerState, type RejectionReason, acceptMotorCommand } from '@pentagate/crypto';
import type { MotorCommand } from '@pentagate/protocol';
import { type Execution, type Setpoint, jointExecution, twistExecution } from './trajectory-execution.js';

export type HaltCause = 'stop-command' | 'watchdog';

export type ControllerEvent =
  | { kind: 'accepted'; atMs: number; via: string; command: MotorCommand }
  | { kind: 'rejected'; atMs: number; via: string; reason: RejectionReason; detail: string }
  | { kind: 'halted'; atMs: number; cause: HaltCause; detail: string };

export interface MotorControllerOptions {
  robotId: string;
  /** HMAC keys by key id, shared with the edge. */
  keys: ReadonlyMap<string, Uint8Array>;
  /** The robot's joint names in profile order (empty for a mobile base). */
  jointNames: readonly string[];
  /** Longest a motion runs without a fresh valid command, ms. */
  watchdogMs: number;
  clock: () => number;
}

export const REJECTION_REASONS: readonly RejectionReason[] = [
  'malformed',
  'wrong-robot',
  'unknown-kid',
  'bad-mac',
  'stale-epoch',
  'replayed-seq',
  'expired',
  'issued-in-future',
];

export class MotorController {
  readonly options: MotorControllerOptions;
  #state: ControllerState;
  #execution: Execution | undefined;
  #lastAcceptedMs = Number.NEGATIVE_INFINITY;
  readonly #rejections = new Map<RejectionReason, number>(REJECTION_REASONS.map((r) => [r, 0]));
  readonly events: ControllerEvent[] = [];
  #listeners: ((e: ControllerEvent) => void)[] = [];

  constructor(options: MotorControllerOptions) {
    this.options = options;
    this.#state = { robotId: options.robotId, epoch: 0, lastSeq: 0 };
  }

  get state(): ControllerState {
    return { ...this.#state };
  }

  /** The command being executed, if any. */
  get execution(): Execution | undefined {
    return this.#execution;
  }

  rejections(): Record<RejectionReason, number> {
    return Object.fromEntries(this.#rejections) as Record<RejectionReason, number>;
  }

  onEvent(listener: (e: ControllerEvent) => void): void {
    this.#listeners.push(listener);
  }

  /**
   * One frame off a link (`via` names it for the log). `currentRad` is where the joints are now, the start
   * of a joint trajectory. Never throws.
   */
  receive(frame: string | Uint8Array, via: string, currentRad: readonly number[] = []): ControllerEvent {
    const nowMs = this.options.clock();
    const result = acceptMotorCommand(this.#state, frame, { keys: this.options.keys, nowMs });
    if (!result.accepted) {
      this.#rejections.set(result.reason, (this.#rejections.get(result.reason) ?? 0) + 1);
      return this.#emit({ kind: 'rejected', atMs: nowMs, via, reason: result.reason, detail: result.detail });
    }
    this.#state = result.state;
    this.#lastAcceptedMs = nowMs;
    const command = result.command;
    const event = this.#emit({ kind: 'accepted', atMs: nowMs, via, command });
    const sp = command.setpoints;
    if (sp.kind === 'stop') {
      this.#halt('stop-command', `signed STOP seq ${command.seq}: ${sp.reason}`, nowMs);
    } else if (sp.speedScale === 0) {
      // A speed cap of 0 (the wire allows 0..1) is no motion at all: the robot holds. Read as "no cap",
      // it ran the plan at full speed, the opposite of what the gate asked.
      this.#halt('stop-command', `seq ${command.seq} caps the speed to 0: holding`, nowMs);
    } else if (sp.kind === 'joint') {
      this.#execution = jointExecution(command.seq, sp, this.options.jointNames, currentRad, nowMs);
    } else {
      this.#execution = twistExecution(command.seq, sp, nowMs);
    }
    return event;
  }

  /**
   * The setpoint for this instant, after the watchdog check; undefined means hold (brakes on). A motion that
   * reached its end is finished normally.
   */
  setpoint(nowMs = this.options.clock()): Setpoint | undefined {
    const ex = this.#execution;
    if (!ex) return undefined;
    if (nowMs - this.#lastAcceptedMs > this.options.watchdogMs) {
      this.#halt(
        'watchdog',
        `no valid command for ${this.options.watchdogMs} ms during seq ${ex.seq}`,
        nowMs,
      );
      return undefined;
    }
    const sp = ex.setpointAt(nowMs);
    if (nowMs >= ex.endsAtMs) this.#execution = undefined;
    return sp;
  }

  /** Halts for a reason of the caller's (the simulation shutting down). */
  halt(detail: string): void {
    if (this.#execution) this.#halt('stop-command', detail, this.options.clock());
  }

  #halt(cause: HaltCause, detail: string, atMs: number): void {
    this.#execution = undefined;
    this.#emit({ kind: 'halted', atMs, cause, detail });
  }

  #emit(e: ControllerEvent): ControllerEvent {
    this.events.push(e);
    for (const l of this.#listeners) l(e);
    return e;
  }
}
