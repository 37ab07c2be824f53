/**
 * RFC 6962 §2.1 hashing: leaves and interior nodes are hashed with different one-byte prefixes
 * (0x00 and 0x01) so a leaf can never be passed off as an interior node (second-preimage defence).
 */
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';

export const MERKLE_HASH_BYTES = 32;

/** MTH({}) = SHA-256() — the root of the empty tree. */
export const EMPTY_ROOT: Uint8Array = nobleSha256(new Uint8Array());

/** MTH({d}) = SHA-256(0x00 || d). */
export function leafHash(leaf: Uint8Array): Uint8Array {
  return nobleSha256
    .create()
    .update(new Uint8Array([0]))
    .update(leaf)
    .digest();
}

/** SHA-256(0x01 || left || right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return nobleSha256
    .create()
    .update(new Uint8Array([1]))
    .update(left)
    .update(right)
    .digest();
}

/** The largest power of two strictly less than n (n >= 2): the split point k of RFC 6962 §2.1. */
export function largestPowerOfTwoBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** log2(n) when n is an exact power of two (1, 2, 4, …), else undefined; exact for every safe integer. */
export function exactLog2(n: number): number | undefined {
  if (!Number.isSafeInteger(n) || n < 1) return undefined;
  let log = 0;
  while (n > 1) {
    if (n % 2 !== 0) return undefined;
    n /= 2;
    log++;
  }
  return log;
}
