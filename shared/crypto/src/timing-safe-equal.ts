/**
 * Byte comparison whose running time does not depend on where two equal-length inputs differ,
 * so a MAC check does not leak how many leading bytes of a forged tag were right.
 */

/**
 * True when `a` and `b` hold the same bytes. Constant time for equal lengths; a length mismatch
 * returns false at once (lengths are public: every MAC and hash here has a fixed size).
 */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}
