/**
 * Identifiers: a short type prefix and a time-ordered random part (48-bit milliseconds + 80 random bits,
 * Crockford base32, the ULID layout), so ids sort by creation time in logs and databases.
 */
import { randomBytes } from 'node:crypto';

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

/** A new id such as `dec_01JD3M…`; `prefix` names the kind of thing (dec, prop, agent, intent). */
export function newId(prefix: string, nowMs: number = Date.now()): string {
  const bytes = new Uint8Array(16);
  let t = nowMs;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = t % 256;
    t = Math.floor(t / 256);
  }
  bytes.set(randomBytes(10), 6);
  return `${prefix}_${encodeBase32(bytes)}`;
}

export const ID_PATTERN = '^[a-z]{2,12}_[0-9A-HJKMNP-TV-Z]{26}$';
