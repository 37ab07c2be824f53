/**
 * Signed motor commands (ARCHITECTURE.md §4): the shape, the key id, the HMAC-SHA256 MAC (compared in constant
 * time by `verifyCommandMac`) and, when a controller state is given, the controller's own acceptance
 * function (`acceptMotorCommand`: epoch, seq, validUntil, issuedAt skew) so the verdict is the one a real
 * controller would reach. HMAC keys are symmetric and never appear in trust files: pass the key itself.
 */
import {
  type ControllerState,
  DEFAULT_MAX_FUTURE_SKEW_MS,
  acceptMotorCommand,
  hmacKeyId,
  verifyCommandMac,
} from '@pentagate/crypto';
import { InvalidInputError, MotorCommandSchema, validate } from '@pentagate/protocol';
import { ReportBuilder, type VerificationReport } from './report.js';
import { describeWindow, isoOf } from './time.js';

export interface MotorCommandCheckOptions {
  /** The controller's HMAC key(s); the command's kid must name one of them. */
  hmacKey: Uint8Array | readonly Uint8Array[];
  /** A controller state: the command is also run through `acceptMotorCommand` at `atMs`. */
  state?: ControllerState;
  /** When the command is (or was) acted on; required with `state`. */
  atMs?: number;
  /** How far issuedAt may lie ahead of atMs (default: the controller's, 500 ms). */
  maxFutureSkewMs?: number;
}

/** `pentagate verify command`: a motor command against the controller's HMAC key. */
export function verifyMotorCommand(command: unknown, options: MotorCommandCheckOptions): VerificationReport {
  const cmd = validate(MotorCommandSchema, command, 'motor command');
  const keyList = options.hmacKey instanceof Uint8Array ? [options.hmacKey] : options.hmacKey;
  const keys = new Map(keyList.map((k) => [hmacKeyId(k), k] as const));
  const report = new ReportBuilder(
    `motor command seq ${cmd.seq} epoch ${cmd.epoch} for ${cmd.robotId} (${cmd.setpoints.kind})`,
  );
  const key = keys.get(cmd.kid);
  if (!key) {
    report.fail(
      'command key',
      `unknown key id ${JSON.stringify(cmd.kid)}: expected one of the given HMAC keys (${[...keys.keys()].join(', ')})`,
    );
    return report.finish(options.atMs);
  }
  report.pass('command key', `key id ${cmd.kid} is one of the given HMAC keys`);
  const macOk = report.check(
    'command MAC',
    verifyCommandMac(key, cmd),
    'HMAC-SHA256 over the JCS command matches (constant-time comparison)',
    'expected the HMAC-SHA256 of the command under the given key, got a different mac',
  );
  const skewMs = options.maxFutureSkewMs ?? DEFAULT_MAX_FUTURE_SKEW_MS;

  if (options.state !== undefined) {
    if (options.atMs === undefined) {
      throw new InvalidInputError('motor command: a controller state needs a time to check against (atMs)');
    }
    const result = acceptMotorCommand(options.state, cmd, {
      keys,
      nowMs: options.atMs,
      maxFutureSkewMs: skewMs,
    });
    const state = options.state;
    report.check(
      'controller acceptance',
      result.accepted,
      `a controller at epoch ${state.epoch}, last seq ${state.lastSeq}, would accept it at ${isoOf(options.atMs)}`,
      result.accepted ? '' : `refused (${result.reason}): ${result.detail}`,
    );
  } else if (options.atMs !== undefined) {
    const problem = describeWindow(options.atMs, cmd.issuedAt - skewMs, cmd.validUntil);
    report.check(
      'validity window',
      problem === undefined,
      `in force at ${isoOf(options.atMs)} (valid until ${isoOf(cmd.validUntil)})`,
      problem ?? '',
    );
  } else if (macOk) {
    report.pass(
      'validity window',
      `not evaluated: no time given; issued ${isoOf(cmd.issuedAt)}, valid until ${isoOf(cmd.validUntil)}`,
    );
  }
  return report.finish(options.atMs);
}
