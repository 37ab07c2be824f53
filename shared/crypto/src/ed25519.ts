/**
 * Ed25519 signatures (RFC 8032) with two backends that produce byte-identical signatures and the
 * same verdicts: node:crypto (OpenSSL, the default, ≈30 µs/sign) and @noble/curves (portable).
 * Validity follows the pinned rule in ed25519-key-rules.ts on both.
 */
import { randomBytes } from 'node:crypto';
import { assertBytes } from './errors.js';
import { ed25519PublicKeyProblem, isCanonicalScalar } from './ed25519-key-rules.js';
import { nodePrivateKey, nodePublicKeyOf, nodeSign, nodeVerify } from './ed25519-node.js';
import { noblePublicKey, nobleSign, nobleVerify } from './ed25519-noble.js';
import { ed25519KeyId } from './key-id.js';

export type Ed25519Backend = 'node' | 'noble';

export interface Ed25519Signer {
  /** ed25519KeyId(publicKey). */
  readonly keyid: string;
  readonly publicKey: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}

function assertBackend(backend: unknown): Ed25519Backend {
  if (backend !== 'node' && backend !== 'noble') {
    throw new RangeError(`Ed25519 backend: expected 'node' or 'noble', got ${String(backend)}`);
  }
  return backend;
}

/** A fresh key pair: the 32-byte RFC 8032 seed (the private key) and the public key. */
export function generateEd25519(): { privateKey: Uint8Array; publicKey: Uint8Array } {
  const privateKey = new Uint8Array(randomBytes(32));
  return { privateKey, publicKey: nodePublicKeyOf(nodePrivateKey(privateKey)) };
}

/** The public key of a 32-byte seed. */
export function ed25519PublicKey(seed: Uint8Array, backend: Ed25519Backend = 'node'): Uint8Array {
  assertBytes(seed, 'Ed25519 seed', 32);
  return assertBackend(backend) === 'node' ? nodePublicKeyOf(nodePrivateKey(seed)) : noblePublicKey(seed);
}

class NodeSigner implements Ed25519Signer {
  readonly keyid: string;
  readonly publicKey: Uint8Array;
  readonly #key;

  constructor(seed: Uint8Array) {
    this.#key = nodePrivateKey(seed);
    this.publicKey = nodePublicKeyOf(this.#key);
    this.keyid = ed25519KeyId(this.publicKey);
  }

  sign(message: Uint8Array): Uint8Array {
    return nodeSign(this.#key, assertBytes(message, 'message'));
  }
}

class NobleSigner implements Ed25519Signer {
  readonly keyid: string;
  readonly publicKey: Uint8Array;
  readonly #seed: Uint8Array;

  constructor(seed: Uint8Array) {
    // A private copy: the caller may zero its seed after creating the signer.
    this.#seed = new Uint8Array(seed);
    this.publicKey = noblePublicKey(this.#seed);
    this.keyid = ed25519KeyId(this.publicKey);
  }

  sign(message: Uint8Array): Uint8Array {
    return nobleSign(this.#seed, assertBytes(message, 'message'));
  }
}

/** A signer for a 32-byte seed. The node backend imports the key once; the caller may zero `seed` after. */
export function createEd25519Signer(seed: Uint8Array, backend: Ed25519Backend = 'node'): Ed25519Signer {
  assertBytes(seed, 'Ed25519 seed', 32);
  return assertBackend(backend) === 'node' ? new NodeSigner(seed) : new NobleSigner(seed);
}

// The key rule costs a scalar multiplication; remember verdicts (bounded, like the KeyObject cache).
const MAX_CACHED_VERDICTS = 4096;
const keyVerdicts = new Map<string, string | undefined>();

/** Why `publicKey` is refused by the pinned rule, or undefined when acceptable (cached). */
export function publicKeyProblem(publicKey: Uint8Array): string | undefined {
  const id = Buffer.from(publicKey).toString('hex');
  if (keyVerdicts.has(id)) return keyVerdicts.get(id);
  const problem = ed25519PublicKeyProblem(publicKey);
  if (keyVerdicts.size >= MAX_CACHED_VERDICTS) keyVerdicts.delete(keyVerdicts.keys().next().value as string);
  keyVerdicts.set(id, problem);
  return problem;
}

/**
 * True when `signature` is a valid Ed25519 signature of `message` under `publicKey` by the pinned
 * rule. Never throws for bad bytes (wrong lengths are simply invalid); throws only for a bad backend.
 */
export function ed25519Verify(
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
  backend: Ed25519Backend = 'node',
): boolean {
  assertBackend(backend);
  if (!(publicKey instanceof Uint8Array) || !(signature instanceof Uint8Array)) return false;
  if (!(message instanceof Uint8Array)) return false;
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  if (!isCanonicalScalar(signature.subarray(32))) return false;
  if (publicKeyProblem(publicKey) !== undefined) return false;
  return backend === 'node'
    ? nodeVerify(publicKey, message, signature)
    : nobleVerify(publicKey, message, signature);
}
