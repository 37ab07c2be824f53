/**
 * Password hashes for the embedded broker's user table. Passwords are never kept in memory or in
 * files in clear: a user entry holds `scrypt$<logN>$<r>$<p>$<salt b64url>$<key b64url>` and a CONNECT
 * password is checked by deriving the key again and comparing in constant time, so neither the
 * comparison nor an early exit tells an attacker how close a guess was.
 *
 * scrypt (RFC 7914) with N = 2^14, r = 8, p = 1 by default: 16 MiB and a few tens of milliseconds per
 * CONNECT, which stays inside Node's default `maxmem` and is paid once per connection, not per message.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { fromBase64Url, InvalidInputError, toBase64Url } from '@pentagate/protocol';

export interface ScryptCost {
  /** log2 of the CPU/memory cost N; 14 → N = 16384. */
  logN: number;
  /** Block size r. */
  r: number;
  /** Parallelism p. */
  p: number;
}

export const DEFAULT_SCRYPT_COST: ScryptCost = { logN: 14, r: 8, p: 1 };

const KEY_BYTES = 32;
const SALT_BYTES = 16;
const HASH_PATTERN = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]{22})\$([A-Za-z0-9_-]{43})$/;

interface ParsedHash {
  cost: ScryptCost;
  salt: Uint8Array;
  key: Uint8Array;
}

function deriveKey(password: string, salt: Uint8Array, cost: ScryptCost): Promise<Uint8Array> {
  const N = 2 ** cost.logN;
  return new Promise((resolve, reject) => {
    // maxmem: 128·N·r bytes plus slack, so a stored cost above the default does not fail spuriously.
    scrypt(password, salt, KEY_BYTES, { N, r: cost.r, p: cost.p, maxmem: 256 * N * cost.r }, (err, key) =>
      err ? reject(err) : resolve(new Uint8Array(key)),
    );
  });
}

/** Parses a stored hash; throws InvalidInputError naming the expected layout. */
export function parsePasswordHash(text: string, what = 'password hash'): ParsedHash {
  const m = HASH_PATTERN.exec(text);
  if (!m) {
    throw new InvalidInputError(
      `${what}: expected scrypt$<logN>$<r>$<p>$<salt>$<key> (base64url), got a string of length ${text.length}`,
    );
  }
  const cost = { logN: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  if (cost.logN < 10 || cost.logN > 20 || cost.r < 1 || cost.p < 1) {
    throw new InvalidInputError(
      `${what}: expected logN in 10..20, r >= 1 and p >= 1, got logN=${cost.logN} r=${cost.r} p=${cost.p}`,
    );
  }
  return {
    cost,
    salt: fromBase64Url(m[4] as string, `${what} salt`, SALT_BYTES),
    key: fromBase64Url(m[5] as string, `${what} key`, KEY_BYTES),
  };
}

/** Hashes a password for a user table entry (a fresh random salt every time). */
export async function hashPassword(
  password: string,
  cost: ScryptCost = DEFAULT_SCRYPT_COST,
): Promise<string> {
  const salt = new Uint8Array(randomBytes(SALT_BYTES));
  const key = await deriveKey(password, salt, cost);
  return `scrypt$${cost.logN}$${cost.r}$${cost.p}$${toBase64Url(salt)}$${toBase64Url(key)}`;
}

/** True when `password` derives to the stored key; the comparison is constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  const key = await deriveKey(password, parsed.salt, parsed.cost);
  return timingSafeEqual(key, parsed.key);
}
