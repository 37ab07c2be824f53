/**
 * Byte encodings used on the wire. Decoders are strict: a string that is not exactly the canonical
 * encoding of some bytes (wrong alphabet, padding where none belongs, non-zero trailing bits) is refused,
 * so one signature can never be written two ways.
 */
import { InvalidInputError } from './errors.js';

const B64URL_RE = /^[A-Za-z0-9_-]*$/;
const B64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const HEX_RE = /^(?:[0-9a-f]{2})*$/;

/** RFC 4648 §5 base64url without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

/** RFC 4648 §4 base64 with padding (DSSE envelopes and C2SP notes use it). */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

function checkLength(out: Uint8Array, what: string, expectedLength?: number): Uint8Array {
  if (expectedLength !== undefined && out.length !== expectedLength) {
    throw new InvalidInputError(`${what}: expected ${expectedLength} bytes, got ${out.length}`);
  }
  return out;
}

function strictDecode(
  s: unknown,
  what: string,
  format: 'base64url' | 'base64' | 'hex',
  re: RegExp,
): Uint8Array {
  if (typeof s !== 'string')
    throw new InvalidInputError(`${what}: expected a ${format} string, got ${typeof s}`);
  if (!re.test(s))
    throw new InvalidInputError(`${what}: expected ${format}, got characters outside its alphabet`);
  const out = new Uint8Array(Buffer.from(s, format));
  // Round-trip check refuses non-canonical encodings (e.g. base64url of length 4n+1, stray trailing bits).
  const again = format === 'hex' ? toHex(out) : format === 'base64' ? toBase64(out) : toBase64Url(out);
  if (again !== s)
    throw new InvalidInputError(`${what}: expected canonical ${format}, got a non-canonical encoding`);
  return out;
}

export function fromBase64Url(s: unknown, what: string, expectedLength?: number): Uint8Array {
  return checkLength(strictDecode(s, what, 'base64url', B64URL_RE), what, expectedLength);
}

export function fromBase64(s: unknown, what: string, expectedLength?: number): Uint8Array {
  return checkLength(strictDecode(s, what, 'base64', B64_RE), what, expectedLength);
}

/** Lower-case hex only; upper-case is refused so digests compare as plain strings. */
export function fromHex(s: unknown, what: string, expectedLength?: number): Uint8Array {
  return checkLength(strictDecode(s, what, 'hex', HEX_RE), what, expectedLength);
}

const utf8 = new TextEncoder();
export const utf8Bytes = (s: string): Uint8Array => utf8.encode(s);
