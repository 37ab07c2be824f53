/**
 * The @noble/curves Ed25519 backend, for runtimes without node:crypto. Signing is RFC 8032
 * deterministic, so it produces the same bytes as OpenSSL. Verification uses OpenSSL's equation on
 * purpose — the cofactorless check "encode([S]B - [k]A) == R" byte for byte — instead of noble's
 * cofactored one, so both backends give the same verdict on every input, including crafted R values
 * with a small-order component (RFC 8032 §5.1.7 allows either equation; we pin this one).
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { ED25519_L } from './ed25519-key-rules.js';

function littleEndianToBigInt(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i] as number);
  return n;
}

export function nobleSign(seed: Uint8Array, message: Uint8Array): Uint8Array {
  return ed25519.sign(message, seed);
}

export function noblePublicKey(seed: Uint8Array): Uint8Array {
  return ed25519.getPublicKey(seed);
}

/** Cofactorless RFC 8032 verification; the caller has checked lengths, S < L and the key rule. */
export function nobleVerify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  const r = signature.subarray(0, 32);
  const s = littleEndianToBigInt(signature.subarray(32, 64));
  let a: InstanceType<typeof ed25519.Point>;
  try {
    a = ed25519.Point.fromBytes(publicKey, false);
  } catch {
    return false;
  }
  const hramInput = new Uint8Array(64 + message.length);
  hramInput.set(r);
  hramInput.set(publicKey, 32);
  hramInput.set(message, 64);
  const k = littleEndianToBigInt(sha512(hramInput)) % ED25519_L;
  const sB = s === 0n ? ed25519.Point.ZERO : ed25519.Point.BASE.multiplyUnsafe(s);
  const kA = k === 0n ? ed25519.Point.ZERO : a.multiplyUnsafe(k);
  const expectedR = sB.subtract(kA).toBytes();
  let diff = 0;
  for (let i = 0; i < 32; i++) diff |= (expectedR[i] as number) ^ (r[i] as number);
  return diff === 0;
}
