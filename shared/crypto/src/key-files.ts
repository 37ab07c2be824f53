/**
 * Key files. Private keys are written with mode 0600 through `open(…, 'wx')`, which refuses to
 * replace an existing file: overwriting a key by accident loses it for good. Formats:
 * - Ed25519: PEM PKCS#8 (RFC 8410, what OpenSSL writes) or JWK `{ kty: 'OKP', crv: 'Ed25519', d, x }` (RFC 8037);
 * - HMAC command keys: JWK `{ kty: 'oct', k }` (RFC 7518 §6.4), 32 random bytes by default.
 * Secrets never appear in error messages; only paths, key ids and public keys do.
 */
import { createPrivateKey, randomBytes } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  InvalidInputError,
  type KeyRole,
  type TrustedKey,
  TrustedKeySchema,
  describeValue,
  fromBase64Url,
  readJson,
  toBase64Url,
  validate,
} from '@pentagate/protocol';
import { ed25519PublicKey, publicKeyProblem } from './ed25519.js';
import { nodePrivateKey } from './ed25519-node.js';
import { assertBytes } from './errors.js';
import { ed25519KeyId, hmacKeyId } from './key-id.js';

export type KeyFileFormat = 'pem' | 'jwk';
export const KEY_FILE_MODE = 0o600;
/** Shortest HMAC command key accepted from a file (bits of security = 8 × bytes). */
export const MIN_HMAC_KEY_BYTES = 32;
const MAX_KEY_FILE_BYTES = 64 * 1024;

async function writeSecretFile(path: string, contents: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'wx', KEY_FILE_MODE);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      throw new InvalidInputError(
        `${path}: already exists; refusing to overwrite a key file (move it away or choose another path)`,
      );
    }
    if (code === 'ENOENT') {
      throw new InvalidInputError(
        `${path}: cannot create the key file: the directory ${dirname(path)} does not exist`,
      );
    }
    throw new InvalidInputError(`${path}: cannot create the key file (${code ?? (err as Error).message})`);
  }
  try {
    // The umask may have removed bits; it cannot have added any, but set the mode exactly anyway.
    await handle.chmod(KEY_FILE_MODE);
    await handle.writeFile(contents, 'utf8');
  } finally {
    await handle.close();
  }
}

async function readKeyFile(path: string): Promise<string> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InvalidInputError(
      `${path}: cannot read the key file (${code === 'ENOENT' ? 'no such file' : (code ?? 'error')})`,
    );
  }
  if (buf.length > MAX_KEY_FILE_BYTES) {
    throw new InvalidInputError(
      `${path}: expected a key file of at most ${MAX_KEY_FILE_BYTES} bytes, got ${buf.length}`,
    );
  }
  return buf.toString('utf8');
}

const ED25519_KEY_FILE = 'an Ed25519 private key (PEM PKCS#8 or a JWK with kty "OKP" and crv "Ed25519")';
const HMAC_KEY_FILE = 'an HMAC key (a JWK with kty "oct")';

/**
 * Parses a key file that should hold a JWK. A file that is not JSON at all (empty, PEM, prose) is named for
 * what it is and for the key the command wanted, rather than reported as malformed JSON.
 */
function readJwk(text: string, path: string, wanted: string): unknown {
  const head = text.trimStart();
  const got =
    head === ''
      ? 'an empty file'
      : head.startsWith('-----BEGIN')
        ? 'a PEM file'
        : head.startsWith('{')
          ? undefined
          : 'text that is neither PEM nor JSON';
  if (got !== undefined) throw new InvalidInputError(`${path}: expected ${wanted}, got ${got}`);
  return readJson(text, { what: path });
}

function assertFormat(format: unknown): KeyFileFormat {
  if (format !== 'pem' && format !== 'jwk') {
    throw new InvalidInputError(`key file format: expected pem or jwk, got ${describeValue(format)}`);
  }
  return format;
}

/** Writes an Ed25519 private key (a new random one unless `seed` is given). */
export async function writeEd25519KeyFile(
  path: string,
  seed?: Uint8Array,
  format: KeyFileFormat = 'pem',
): Promise<{ kid: string; publicKey: Uint8Array }> {
  assertFormat(format);
  const secret = seed ? assertBytes(seed, 'Ed25519 seed', 32) : new Uint8Array(randomBytes(32));
  const publicKey = ed25519PublicKey(secret);
  const kid = ed25519KeyId(publicKey);
  const contents =
    format === 'pem'
      ? (nodePrivateKey(secret).export({ format: 'pem', type: 'pkcs8' }) as string)
      : `${JSON.stringify({ kty: 'OKP', crv: 'Ed25519', d: toBase64Url(secret), x: toBase64Url(publicKey), kid }, null, 2)}\n`;
  await writeSecretFile(path, contents);
  if (!seed) secret.fill(0);
  return { kid, publicKey };
}

/** Reads an Ed25519 private key from PEM PKCS#8 or a JWK (OKP, Ed25519). */
export async function readEd25519KeyFile(
  path: string,
): Promise<{ kid: string; seed: Uint8Array; publicKey: Uint8Array }> {
  const text = await readKeyFile(path);
  let seed: Uint8Array;
  if (text.trimStart().startsWith('-----BEGIN')) {
    let jwk: { kty?: string; crv?: string; d?: string };
    try {
      const key = createPrivateKey({ key: text, format: 'pem' });
      jwk = key.export({ format: 'jwk' }) as typeof jwk;
    } catch {
      throw new InvalidInputError(
        `${path}: expected a PEM PKCS#8 private key, got PEM that does not parse as one`,
      );
    }
    if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') {
      throw new InvalidInputError(
        `${path}: expected an Ed25519 private key, got ${jwk.crv ?? jwk.kty ?? 'another key type'}`,
      );
    }
    seed = fromBase64Url(jwk.d, `${path}: d`, 32);
  } else {
    const jwk = readJwk(text, path, ED25519_KEY_FILE) as Record<string, unknown>;
    if (jwk === null || typeof jwk !== 'object' || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') {
      throw new InvalidInputError(`${path}: expected PEM or a JWK with kty "OKP" and crv "Ed25519"`);
    }
    seed = fromBase64Url(jwk.d, `${path}: d`, 32);
    const derived = toBase64Url(ed25519PublicKey(seed));
    if (jwk.x !== undefined && jwk.x !== derived) {
      throw new InvalidInputError(`${path}: x does not match the public key of d (expected ${derived})`);
    }
  }
  const publicKey = ed25519PublicKey(seed);
  return { kid: ed25519KeyId(publicKey), seed, publicKey };
}

/** Writes an HMAC command key as a JWK `{ kty: 'oct' }` (a new random 32-byte key unless given). */
export async function writeHmacKeyFile(path: string, key?: Uint8Array): Promise<{ kid: string }> {
  const secret = key ? assertBytes(key, 'HMAC key') : new Uint8Array(randomBytes(32));
  if (secret.length < MIN_HMAC_KEY_BYTES) {
    throw new InvalidInputError(
      `HMAC key: expected at least ${MIN_HMAC_KEY_BYTES} bytes, got ${secret.length}`,
    );
  }
  const kid = hmacKeyId(secret);
  await writeSecretFile(
    path,
    `${JSON.stringify({ kty: 'oct', alg: 'HS256', k: toBase64Url(secret), kid }, null, 2)}\n`,
  );
  if (!key) secret.fill(0);
  return { kid };
}

export async function readHmacKeyFile(path: string): Promise<{ kid: string; key: Uint8Array }> {
  const jwk = readJwk(await readKeyFile(path), path, HMAC_KEY_FILE) as Record<string, unknown>;
  if (jwk === null || typeof jwk !== 'object' || jwk.kty !== 'oct') {
    throw new InvalidInputError(`${path}: expected a JWK with kty "oct" (an HMAC key)`);
  }
  const key = fromBase64Url(jwk.k, `${path}: k`);
  if (key.length < MIN_HMAC_KEY_BYTES) {
    throw new InvalidInputError(
      `${path}: k: expected at least ${MIN_HMAC_KEY_BYTES} bytes, got ${key.length}`,
    );
  }
  const kid = hmacKeyId(key);
  if (jwk.kid !== undefined && jwk.kid !== kid) {
    throw new InvalidInputError(
      `${path}: kid ${describeValue(jwk.kid)} does not match the key (expected ${kid})`,
    );
  }
  return { kid, key };
}

/** A trust-document entry for an Ed25519 public key; refuses keys the pinned rule refuses. */
export function trustEntryFor(
  publicKey: Uint8Array,
  role: KeyRole,
  opts: { notBefore?: string; notAfter?: string; name?: string; comment?: string } = {},
): TrustedKey {
  assertBytes(publicKey, 'Ed25519 public key', 32);
  const problem = publicKeyProblem(publicKey);
  if (problem) throw new InvalidInputError(`Ed25519 public key: refused, ${problem}`);
  const entry: TrustedKey = {
    kid: ed25519KeyId(publicKey),
    alg: 'Ed25519',
    role,
    publicKey: toBase64Url(publicKey),
  };
  for (const field of ['notBefore', 'notAfter', 'name', 'comment'] as const) {
    if (opts[field] !== undefined) entry[field] = opts[field];
  }
  return validate(TrustedKeySchema, entry, 'trust entry');
}
