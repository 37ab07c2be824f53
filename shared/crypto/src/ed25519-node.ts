/**
 * The node:crypto (OpenSSL) Ed25519 backend. Importing a raw key into a KeyObject costs more than a
 * signature, so signers hold one private KeyObject and verifiers cache public KeyObjects per key.
 */
import { type KeyObject, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';

// DER prefixes of PKCS#8 (RFC 8410 §7) and SPKI (RFC 8410 §4) for Ed25519 (OID 1.3.101.112).
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export function nodePrivateKey(seed: Uint8Array): KeyObject {
  const der = Buffer.concat([PKCS8_PREFIX, seed]);
  try {
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  } finally {
    der.fill(0);
  }
}

export function nodePublicKeyOf(privateKey: KeyObject): Uint8Array {
  const der = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  return new Uint8Array(der.subarray(SPKI_PREFIX.length));
}

const MAX_CACHED_PUBLIC_KEYS = 4096;
const publicKeyCache = new Map<string, KeyObject>();

function nodePublicKey(publicKey: Uint8Array): KeyObject {
  const id = Buffer.from(publicKey).toString('hex');
  let key = publicKeyCache.get(id);
  if (!key) {
    key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' });
    // Bounded so that verifying many attacker-chosen keys cannot grow memory without limit.
    if (publicKeyCache.size >= MAX_CACHED_PUBLIC_KEYS) {
      publicKeyCache.delete(publicKeyCache.keys().next().value as string);
    }
    publicKeyCache.set(id, key);
  }
  return key;
}

export function nodeSign(privateKey: KeyObject, message: Uint8Array): Uint8Array {
  const sig = sign(null, message, privateKey);
  return new Uint8Array(sig.buffer, sig.byteOffset, sig.byteLength);
}

export function nodeVerify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  return verify(null, message, nodePublicKey(publicKey), signature);
}
