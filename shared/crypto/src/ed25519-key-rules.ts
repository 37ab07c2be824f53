/**
 * The pinned Ed25519 validity rule, applied identically on both backends (README "Signature rule"):
 *
 * - RFC 8032 §5.1.7 strict: the signature's S must be canonical, 0 <= S < L. A signature with S + L
 *   is the same signature written differently (malleability), so it is refused.
 * - A public key must be the canonical encoding (y < p; not x = 0 with the sign bit set) of a point of
 *   prime order L. That refuses the 8 small-order points (RFC 8032 does not, OpenSSL does not: with
 *   the non-canonical identity encoding y = p + 1, node:crypto accepts an all-zero signature for any
 *   message) and mixed-order points no honest key generator produces. Trust stores refuse such keys
 *   when loaded; `ed25519Verify` refuses them too, so verdicts never depend on the backend.
 */
import { ed25519 } from '@noble/curves/ed25519.js';

/** The order of the Ed25519 base point (RFC 8032 §5.1). */
export const ED25519_L = 2n ** 252n + 27742317777372353535851937790883648493n;
const P = 2n ** 255n - 19n;

function littleEndianToBigInt(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i] as number);
  return n;
}

/** True when the 32-byte S of a signature is a canonical scalar (S < L). */
export function isCanonicalScalar(s: Uint8Array): boolean {
  return s.length === 32 && littleEndianToBigInt(s) < ED25519_L;
}

/**
 * Why a 32-byte string is not an acceptable Ed25519 public key, or undefined when it is.
 * Costs one scalar multiplication (the prime-order check), so callers cache the verdict per key.
 */
export function ed25519PublicKeyProblem(publicKey: Uint8Array): string | undefined {
  if (publicKey.length !== 32) return `expected 32 bytes, got ${publicKey.length}`;
  const y = littleEndianToBigInt(publicKey) & ((1n << 255n) - 1n);
  if (y >= P) return 'not a canonical point encoding (y >= 2^255 - 19)';
  let point: InstanceType<typeof ed25519.Point>;
  try {
    // zip215 = false: RFC 8032 decoding, which also refuses x = 0 with the sign bit set.
    point = ed25519.Point.fromBytes(publicKey, false);
  } catch {
    return 'not a point on the Ed25519 curve';
  }
  if (point.isSmallOrder()) return 'a small-order point (it would verify forged signatures)';
  if (!point.isTorsionFree()) return 'a mixed-order point (not in the prime-order subgroup)';
  return undefined;
}
