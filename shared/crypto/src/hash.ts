/**
 * SHA-256 (FIPS 180-4) via @noble/hashes, so the same digests come out in browsers and other
 * runtimes. Every digest on the wire is 64 lower-case hex characters.
 */
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { canonicalBytes, toHex, utf8Bytes } from '@pentagate/protocol';

export function sha256(bytes: Uint8Array): Uint8Array {
  return nobleSha256(bytes);
}

/** SHA-256 as lower-case hex; a string is hashed as its UTF-8 bytes. */
export function sha256Hex(input: Uint8Array | string): string {
  return toHex(nobleSha256(typeof input === 'string' ? utf8Bytes(input) : input));
}

/** SHA-256 of the RFC 8785 canonical form: the digest of a JSON value that every party agrees on. */
export function jcsDigestHex(value: unknown): string {
  return toHex(nobleSha256(canonicalBytes(value)));
}
