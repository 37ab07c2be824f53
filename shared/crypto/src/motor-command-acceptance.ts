/**
 * The controller's acceptance function for signed motor commands (ARCHITECTURE.md §4), shared by the
 * simulator's motor controller and real controller code so both refuse exactly the same commands.
 * Pure: it reads the state and returns a new one; the caller persists `state` only on acceptance.
 *
 * Order of checks (contract): shape → robotId → kid known → MAC (constant time) → epoch → seq →
 * validUntil → issuedAt. Authenticity comes before the epoch/seq/time checks so an unauthenticated
 * message can never move the controller's state, and so rejection reasons after `bad-mac` are only
 * ever reported for commands the edge really signed.
 */
import { conforms, readJson, schemaIssues } from '@pentagate/protocol';
import { verifyCommandMac } from './command-mac.js';
import { type MotorCommand, MotorCommandSchema } from '@pentagate/protocol';

export interface ControllerState {
  robotId: string;
  /** The current epoch; commands from older epochs are refused (a STOP bumps it). */
  epoch: number;
  /** The seq of the last accepted command; 0 before any. */
  lastSeq: number;
}

export interface AcceptanceOptions {
  /** HMAC keys by key id. */
  keys: ReadonlyMap<string, Uint8Array>;
  /** The controller's clock, Unix ms. */
  nowMs: number;
  /** How far `issuedAt` may lie ahead of `nowMs` (clock skew between edge and controller). Default 500. */
  maxFutureSkewMs?: number;
}

export type RejectionReason =
  | 'malformed'
  | 'wrong-robot'
  | 'unknown-kid'
  | 'bad-mac'
  | 'stale-epoch'
  | 'replayed-seq'
  | 'expired'
  | 'issued-in-future';

export type Acceptance =
  | { accepted: true; command: MotorCommand; state: ControllerState }
  | { accepted: false; reason: RejectionReason; detail: string };

export const DEFAULT_MAX_FUTURE_SKEW_MS = 500;
/** A motor command is small; anything bigger is refused before parsing. */
export const MAX_MOTOR_COMMAND_BYTES = 64 * 1024;

const reject = (reason: RejectionReason, detail: string): Acceptance => ({ accepted: false, reason, detail });

function parseInput(input: unknown): { ok: true; value: unknown } | { ok: false; detail: string } {
  if (typeof input !== 'string' && !(input instanceof Uint8Array)) return { ok: true, value: input };
  try {
    return { ok: true, value: readJson(input, { what: 'motor command', maxBytes: MAX_MOTOR_COMMAND_BYTES }) };
  } catch (err) {
    return { ok: false, detail: (err as Error).message };
  }
}

/**
 * Decides whether a controller executes `input` (a parsed command, or its JSON text/bytes as it came
 * off the wire). Never throws for bad input: every refusal is a `reason` plus a readable `detail`.
 */
export function acceptMotorCommand(
  state: ControllerState,
  input: unknown,
  options: AcceptanceOptions,
): Acceptance {
  if (!Number.isFinite(options.nowMs)) {
    // A controller without a clock cannot tell a live command from a recorded one: fail closed.
    return reject('expired', `controller clock is not a finite number (${options.nowMs})`);
  }
  const skewMs = options.maxFutureSkewMs ?? DEFAULT_MAX_FUTURE_SKEW_MS;

  const parsed = parseInput(input);
  if (!parsed.ok) return reject('malformed', parsed.detail);
  const value = parsed.value;
  if (!conforms(MotorCommandSchema, value)) {
    const issues = schemaIssues(MotorCommandSchema, value)
      .slice(0, 3)
      .map((i) => `${i.path || '/'}: ${i.message}`);
    return reject('malformed', `motor command: ${issues.join('; ')}`);
  }
  const command = value;

  if (command.robotId !== state.robotId) {
    return reject('wrong-robot', `command is for robot "${command.robotId}", this is "${state.robotId}"`);
  }
  const key = options.keys.get(command.kid);
  if (!key) return reject('unknown-kid', `key id "${command.kid}" is not among the controller's keys`);
  if (!verifyCommandMac(key, command)) {
    return reject('bad-mac', `MAC does not match the command under key "${command.kid}"`);
  }
  if (command.epoch < state.epoch) {
    return reject('stale-epoch', `epoch ${command.epoch} is older than the current epoch ${state.epoch}`);
  }
  // seq is one monotonic counter across epochs (ARCHITECTURE.md §4), so a new epoch does not reset it.
  if (command.seq <= state.lastSeq) {
    return reject(
      'replayed-seq',
      `seq ${command.seq} is not greater than the last accepted seq ${state.lastSeq}`,
    );
  }
  if (options.nowMs > command.validUntil) {
    return reject(
      'expired',
      `validUntil ${command.validUntil} is ${options.nowMs - command.validUntil} ms before now (${options.nowMs})`,
    );
  }
  if (command.issuedAt > options.nowMs + skewMs) {
    return reject(
      'issued-in-future',
      `issuedAt ${command.issuedAt} is ${command.issuedAt - options.nowMs} ms ahead of now (${options.nowMs}); allowed skew ${skewMs} ms`,
    );
  }
  // A higher epoch is adopted here: this is how a signed STOP's new epoch reaches the controller.
  return {
    accepted: true,
    command,
    state: { robotId: state.robotId, epoch: command.epoch, lastSeq: command.seq },
  };
}
