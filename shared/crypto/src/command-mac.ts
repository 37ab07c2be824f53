/**
 * The motor-command MAC of ARCHITECTURE.md §4:
 *   mac = base64url(HMAC-SHA256(key, "pentagate-cmd-v1\n" || JCS(command without mac)))
 * HMAC (RFC 2104) over SHA-256 via @noble/hashes. The context string separates these MACs from any
 * other use of the same key; JCS (RFC 8785) makes the MAC independent of member order and spacing.
 * The MAC covers every member except `mac` itself, including any member a future version adds.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { canonicalBytes, fromBase64Url, toBase64Url, utf8Bytes } from '@pentagate/protocol';
import { assertBytes } from './errors.js';
import { timingSafeEqual } from './timing-safe-equal.js';
import type { MotorCommand, UnsignedMotorCommand } from '@pentagate/protocol';

export const COMMAND_MAC_CONTEXT = 'pentagate-cmd-v1\n';
const CONTEXT_BYTES = utf8Bytes(COMMAND_MAC_CONTEXT);
/** HMAC-SHA256 output length. */
export const COMMAND_MAC_BYTES = 32;

function withoutMac(command: object): Record<string, unknown> {
  const { mac: _mac, ...rest } = command as Record<string, unknown>;
  return rest;
}

function macBytes(key: Uint8Array, unsigned: object): Uint8Array {
  assertBytes(key, 'command MAC key');
  const body = canonicalBytes(withoutMac(unsigned));
  const message = new Uint8Array(CONTEXT_BYTES.length + body.length);
  message.set(CONTEXT_BYTES);
  message.set(body, CONTEXT_BYTES.length);
  return hmac(sha256, key, message);
}

/** base64url (43 chars) of the command's MAC; a `mac` member in the input is ignored. */
export function computeCommandMac(key: Uint8Array, unsigned: UnsignedMotorCommand): string {
  return toBase64Url(macBytes(key, unsigned));
}

/** The command with its `mac` member set (replacing any previous one). */
export function signMotorCommand(key: Uint8Array, unsigned: UnsignedMotorCommand): MotorCommand {
  return { ...(withoutMac(unsigned) as UnsignedMotorCommand), mac: computeCommandMac(key, unsigned) };
}

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
