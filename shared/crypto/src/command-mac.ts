/**
 * The motor-command MAC of ARCHITECTURE.md §4:
 *   mac = base64url(HMAC-SHA256(key, "pentagate-cmd-v1\n" || JCS(command without mac)))
 * The construction is context-mac.ts's, shared with sensor frames (sensor-frame-mac.ts).
 */
import type { MotorCommand, UnsignedMotorCommand } from '@pentagate/protocol';
import { fromBase64Url, toBase64Url } from '@pentagate/protocol';
import {
  contextMac,
  HMAC_SHA256_BYTES,
  type HmacSha256,
  type HmacSha256Text,
  withoutMac,
} from './context-mac.js';
import { timingSafeEqual } from './timing-safe-equal.js';

export const COMMAND_MAC_CONTEXT = 'pentagate-cmd-v1\n';
/** HMAC-SHA256 output length. */
export const COMMAND_MAC_BYTES = HMAC_SHA256_BYTES;

/** The command-MAC functions over one HMAC implementation (the edge passes node:crypto's). */
export function commandMacs(hmacSha256?: HmacSha256, hmacSha256Text?: HmacSha256Text) {
  const macBytes = contextMac(COMMAND_MAC_CONTEXT, 'command MAC key', hmacSha256, hmacSha256Text);
  const compute = (key: Uint8Array, unsigned: UnsignedMotorCommand): string =>
    toBase64Url(macBytes(key, unsigned));
  return {
    /** base64url (43 chars) of the command's MAC; a `mac` member in the input is ignored. */
    compute,
    /** The command with its `mac` member set (replacing any previous one). */
    sign: (key: Uint8Array, unsigned: UnsignedMotorCommand): MotorCommand => ({
      ...(withoutMac(unsigned) as UnsignedMotorCommand),
      mac: compute(key, unsigned),
    }),
    macBytes,
  };
}

const portable = commandMacs();
const macBytes = portable.macBytes;

/** base64url (43 chars) of the command's MAC; a `mac` member in the input is ignored. */
export const computeCommandMac = portable.compute;

/** The command with its `mac` member set (replacing any previous one). */
export const signMotorCommand = portable.sign;

/**
 * True when `command.mac` is the MAC of every other member under `key`. The comparison is constant
 * time; a `mac` that is not canonical base64url of 32 bytes is simply not a match.
 */
export function verifyCommandMac(key: Uint8Array, command: MotorCommand): boolean {
  let claimed: Uint8Array;
  try {
    claimed = fromBase64Url(command.mac, 'command.mac', COMMAND_MAC_BYTES);
  } catch {
    return false;
  }
  return timingSafeEqual(macBytes(key, command), claimed);
}
