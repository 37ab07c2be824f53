/**
 * The motor-command path of ARCHITECTURE.md §4: JCS canonicalisation, the command MAC (sign and
 * constant-time verify), a bare HMAC-SHA256 over the same bytes (the floor the edge suite compares
 * trapAndSign against) and the controller's whole acceptance function.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import {
  COMMAND_MAC_CONTEXT,
  acceptMotorCommand,
  computeCommandMac,
  hmacKeyId,
  signMotorCommand,
  verifyCommandMac,
} from '@pentagate/crypto';
import { canonicalBytes, utf8Bytes } from '@pentagate/protocol';
import { type SectionResult, type SuiteContext, sectionOf } from '../harness/index.js';
import { sampleUnsignedMotorCommand } from '../fixtures/motor-command.js';

export function benchJcsAndMac(ctx: SuiteContext): SectionResult {
  const key = new Uint8Array(32).fill(7);
  const kid = hmacKeyId(key);
  const unsigned = { ...sampleUnsignedMotorCommand(), kid };
  const signed = signMotorCommand(key, unsigned);
  const body = canonicalBytes(unsigned);
  const message = new Uint8Array([...utf8Bytes(COMMAND_MAC_CONTEXT), ...body]);
  if (!verifyCommandMac(key, signed)) throw new Error('crypto bench: the sample command does not verify');

  const iterations = 20_000;
  const jcs = ctx.measureSync('jcsMotorCommand', () => canonicalBytes(unsigned), { iterations });
  const bare = ctx.measureSync('hmacSha256Bare', () => hmac(sha256, key, message), { iterations });
  const sign = ctx.measureSync('hmacSign', () => computeCommandMac(key, unsigned), { iterations });
  const verify = ctx.measureSync('hmacVerify', () => verifyCommandMac(key, signed), { iterations });
  const keys = new Map([[kid, key]]);
  const state = { robotId: unsigned.robotId, epoch: unsigned.epoch, lastSeq: 0 };
  const accept = ctx.measureSync(
    'acceptMotorCommand',
    () => {
      const verdict = acceptMotorCommand(state, signed, { keys, nowMs: unsigned.issuedAt });
      if (!verdict.accepted)
        throw new Error(`crypto bench: acceptance refused the sample: ${verdict.reason}`);
      return verdict;
    },
    { iterations },
  );
  return sectionOf([jcs, bare, sign, verify, accept], {
    figures: { 'motorCommand.jcsBytes': body.length },
    notes: [
      `motor command: 6 joints × ${unsigned.setpoints.kind === 'joint' ? unsigned.setpoints.points.length : 0} points, ` +
        `${body.length} bytes of JCS; hmacSign/hmacVerify include the JCS step, hmacSha256Bare does not`,
    ],
  });
}
