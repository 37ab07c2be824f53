/**
 * Verification of RFC 6962 proofs with the iterative algorithms of RFC 9162 §2.1.3.2 (inclusion)
 * and §2.1.4.2 (consistency). Sizes may reach 2^53 - 1, so bit operations use arithmetic, never the
 * 32-bit `>>`. Every hash must be 32 bytes and proofs must have exactly the right length: a
 * truncated or padded proof is refused, never partially used.
 */
import { EMPTY_ROOT, MERKLE_HASH_BYTES, exactLog2, nodeHash } from './merkle-hash.js';
import { timingSafeEqual } from './timing-safe-equal.js';

const isBytes = (b: unknown, length?: number): b is Uint8Array =>
  b instanceof Uint8Array && (length === undefined || b.length === length);
const isSize = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
const odd = (n: number): boolean => n % 2 === 1;
const half = (n: number): number => Math.floor(n / 2);

function validProofHashes(proof: unknown): proof is Uint8Array[] {
  return Array.isArray(proof) && proof.every((h) => isBytes(h, MERKLE_HASH_BYTES));
}

/** True when `proof` shows the leaf with hash `leafHash` at `leafIndex` in the tree of `treeSize` with `rootHash`. */
export function verifyInclusion(
  leafHash: Uint8Array,
  leafIndex: number,
  treeSize: number,
  proof: Uint8Array[],
  rootHash: Uint8Array,
): boolean {
  if (!isSize(leafIndex) || !isSize(treeSize) || leafIndex >= treeSize) return false;
  if (!isBytes(leafHash, MERKLE_HASH_BYTES) || !isBytes(rootHash, MERKLE_HASH_BYTES)) return false;
  if (!validProofHashes(proof)) return false;
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r = leafHash;
  for (const p of proof) {
    if (sn === 0) return false; // proof longer than the path
    if (odd(fn) || fn === sn) {
      r = nodeHash(p, r);
      while (!odd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && timingSafeEqual(r, rootHash);
}

/**
 * True when `proof` shows the tree of `newSize` with `newRoot` extends the tree of `oldSize` with
 * `oldRoot`. Equal sizes need an empty proof and equal roots. A proof from the empty tree proves
 * nothing, so `oldSize` 0 is refused unless both trees are empty with the empty root.
 */
export function verifyConsistency(
  oldSize: number,
  newSize: number,
  oldRoot: Uint8Array,
  newRoot: Uint8Array,
  proof: Uint8Array[],
): boolean {
  if (!isSize(oldSize) || !isSize(newSize) || oldSize > newSize) return false;
  if (!isBytes(oldRoot) || !isBytes(newRoot) || !validProofHashes(proof)) return false;
  if (oldSize === newSize) {
    if (proof.length !== 0) return false;
    if (oldSize === 0) return timingSafeEqual(oldRoot, EMPTY_ROOT) && timingSafeEqual(newRoot, EMPTY_ROOT);
    return timingSafeEqual(oldRoot, newRoot);
  }
  if (oldSize === 0 || proof.length === 0) return false;
  if (oldRoot.length !== MERKLE_HASH_BYTES || newRoot.length !== MERKLE_HASH_BYTES) return false;

  // When the old tree is a complete subtree, its root is the first node of the path (RFC 9162 step 2).
  const path = exactLog2(oldSize) !== undefined ? [oldRoot, ...proof] : proof;
  let fn = oldSize - 1;
  let sn = newSize - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0] as Uint8Array;
  let sr = path[0] as Uint8Array;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (!odd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && timingSafeEqual(fr, oldRoot) && timingSafeEqual(sr, newRoot);
}
