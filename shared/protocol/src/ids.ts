/**
 * Identifiers: a short type prefix and a time-ordered random part (48-bit milliseconds + 80 random bits,
 * Crockford base32, the ULID layout), so ids sort by creation time in logs and databases.
 */
import { randomFillSync } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function encodeBase32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += CROCKFORD[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += CROCKFORD[(value << (5 - bits)) & 31];
  return out;
}

/**
 * Random bytes for ids, drawn from the CSPRNG 4 KiB at a time and handed out 10 bytes per id: one
 * `randomFillSync` per ~400 ids instead of a `randomBytes` call (and a Buffer) per id, which was a visible
 * share of a propose (each makes two ids). Node's own `crypto.randomUUID` keeps the same kind of entropy
 * cache. Every byte is used once.
 */
const ENTROPY_POOL_BYTES = 4096;
const RANDOM_BYTES_PER_ID = 10;
const entropy = new Uint8Array(ENTROPY_POOL_BYTES);
let entropyUsed = ENTROPY_POOL_BYTES;

function nextRandomBytes(into: Uint8Array, at: number): void {
  if (entropyUsed + RANDOM_BYTES_PER_ID > ENTROPY_POOL_BYTES) {
    randomFillSync(entropy);
    entropyUsed = 0;
  }
  into.set(entropy.subarray(entropyUsed, entropyUsed + RANDOM_BYTES_PER_ID), at);
  entropy.fill(0, entropyUsed, entropyUsed + RANDOM_BYTES_PER_ID);
  entropyUsed += RANDOM_BYTES_PER_ID;
}

/** A new id such as `dec_01JD3M…`; `prefix` names the kind of thing (dec, prop, agent, intent). */
export function newId(prefix: string, nowMs: number = Date.now()): string {
  const bytes = new Uint8Array(16);
  let t = nowMs;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = t % 256;
    t = Math.floor(t / 256);
  }
  nextRandomBytes(bytes, 6);
  return `${prefix}_${encodeBase32(bytes)}`;
}

export const ID_PATTERN = '^[a-z]{2,12}_[0-9A-HJKMNP-TV-Z]{26}$';
