/**
 * Key ids: short, stable names for keys, derived from the key itself so nobody has to invent one
 * and two different keys never share an id by accident. `kind` is in the hashed input so an HMAC
 * key and an Ed25519 public key with the same bytes still get different ids.
 */
import { InvalidInputError, toHex, utf8Bytes } from '@pentagate/protocol';
import { assertBytes } from './errors.js';
import { sha256 } from './hash.js';

const KEY_ID_CONTEXT = 'pentagate-kid-v1\n';

function keyId(kind: 'hmac' | 'ed25519', raw: Uint8Array): string {
  const prefix = utf8Bytes(`${KEY_ID_CONTEXT}${kind}\n`);
  const input = new Uint8Array(prefix.length + raw.length);
  input.set(prefix);
  input.set(raw, prefix.length);
  // 8 bytes (64 bits) is plenty for naming keys in one deployment; ids are never a security boundary.
  return toHex(sha256(input).subarray(0, 8));
}

/**
 * Key id of an HMAC command key (16 lower-case hex chars). It is a hash of the secret, so it is safe
 * to log, but only 64 bits of it, which reveal nothing useful about a 256-bit key.
 */
export function hmacKeyId(key: Uint8Array): string {
  assertBytes(key, 'HMAC key');
  if (key.length < 16) throw new InvalidInputError(`HMAC key: expected at least 16 bytes, got ${key.length}`);
  return keyId('hmac', key);
}

/** Key id of an Ed25519 public key (16 lower-case hex chars). */
export function ed25519KeyId(publicKey: Uint8Array): string {
  return keyId('ed25519', assertBytes(publicKey, 'Ed25519 public key', 32));
}
