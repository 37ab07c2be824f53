/**
 * An append-only RFC 6962 Merkle tree held in memory. It keeps the hash of every complete, aligned
 * subtree (level 0 = leaf hashes, level h = subtrees of 2^h leaves), so append is amortised O(1)
 * hashes, and a root or proof for any size is O(log n) hashes: every left subtree in the RFC's
 * recursive definition is complete and aligned, so it is a lookup, not a recomputation.
 */
import { InvalidInputError } from '@pentagate/protocol';
import { assertBytes } from './errors.js';
import {
  EMPTY_ROOT,
  MERKLE_HASH_BYTES,
  exactLog2,
  largestPowerOfTwoBelow,
  leafHash,
  nodeHash,
} from './merkle-hash.js';

export class MerkleTree {
  /** levels[h][i] = hash of leaves [i·2^h, (i+1)·2^h). */
  readonly #levels: Uint8Array[][] = [[]];

  /** A tree whose leaves have these (already computed) leaf hashes, e.g. loaded from storage. */
  static fromLeafHashes(hashes: Uint8Array[]): MerkleTree {
    const tree = new MerkleTree();
    hashes.forEach((h, i) => {
      tree.#push(new Uint8Array(assertBytes(h, `leaf hash ${i}`, MERKLE_HASH_BYTES)));
    });
    return tree;
  }

  get size(): number {
    return (this.#levels[0] as Uint8Array[]).length;
  }

  /** Appends a leaf (its bytes; it is hashed with the 0x00 prefix) and returns its index. */
  append(leaf: Uint8Array): number {
    return this.#push(leafHash(assertBytes(leaf, 'leaf')));
  }

  /** Appends an already-computed leaf hash and returns its index. */
  appendLeafHash(hash: Uint8Array): number {
    return this.#push(new Uint8Array(assertBytes(hash, 'leaf hash', MERKLE_HASH_BYTES)));
  }

  leafHashAt(index: number): Uint8Array {
    this.#checkIndex(index, this.size, 'leaf index');
    return new Uint8Array((this.#levels[0] as Uint8Array[])[index] as Uint8Array);
  }

  /** MTH of the first `size` leaves (default: all). */
  rootHash(size: number = this.size): Uint8Array {
    this.#checkSize(size, 'tree size');
    // Copies: the stored hashes must not be changed through a returned array.
    return new Uint8Array(size === 0 ? EMPTY_ROOT : this.#subtreeHash(0, size));
  }

  /** RFC 6962 §2.1.1 audit path for leaf `index` in the tree of the first `size` leaves. */
  inclusionProof(index: number, size: number = this.size): Uint8Array[] {
    this.#checkSize(size, 'tree size');
    this.#checkIndex(index, size, 'leaf index');
    const proof: Uint8Array[] = [];
    this.#path(index, 0, size, proof);
    return proof.map((h) => new Uint8Array(h));
  }

  /**
   * RFC 6962 §2.1.2 consistency proof between the trees of `oldSize` and `newSize` leaves. Empty when
   * the sizes are equal or `oldSize` is 0 (nothing to prove; verifiers refuse the latter).
   */
  consistencyProof(oldSize: number, newSize: number = this.size): Uint8Array[] {
    this.#checkSize(newSize, 'new tree size');
    this.#checkSize(oldSize, 'old tree size');
    if (oldSize > newSize) {
      throw new InvalidInputError(`old tree size: expected at most the new size ${newSize}, got ${oldSize}`);
    }
    const proof: Uint8Array[] = [];
    if (oldSize > 0 && oldSize < newSize) this.#subproof(oldSize, 0, newSize, true, proof);
    return proof.map((h) => new Uint8Array(h));
  }

  #push(hash: Uint8Array): number {
    const index = this.size;
    let h = hash;
    let i = index;
    for (let level = 0; ; level++) {
      const row = this.#levels[level] ?? [];
      this.#levels[level] = row;
      row.push(h);
      if (i % 2 === 0) break;
      h = nodeHash(row[i - 1] as Uint8Array, h);
      i = (i - 1) / 2;
    }
    return index;
  }

  /** MTH(D[start:start+n]); the recursion only ever asks for aligned left subtrees. */
  #subtreeHash(start: number, n: number): Uint8Array {
    const level = exactLog2(n);
    if (level !== undefined && start % n === 0) {
      return (this.#levels[level] as Uint8Array[])[start / n] as Uint8Array;
    }
    const k = largestPowerOfTwoBelow(n);
    return nodeHash(this.#subtreeHash(start, k), this.#subtreeHash(start + k, n - k));
  }

  // PATH(m, D[n]) with D = leaves [start, start+n); appends deepest hashes first.
  #path(m: number, start: number, n: number, out: Uint8Array[]): void {
    if (n <= 1) return;
    const k = largestPowerOfTwoBelow(n);
    if (m < k) {
      this.#path(m, start, k, out);
      out.push(this.#subtreeHash(start + k, n - k));
    } else {
      this.#path(m - k, start + k, n - k, out);
      out.push(this.#subtreeHash(start, k));
    }
  }

  // SUBPROOF(m, D[n], b) of RFC 6962 §2.1.2.
  #subproof(m: number, start: number, n: number, complete: boolean, out: Uint8Array[]): void {
    if (m === n) {
      if (!complete) out.push(this.#subtreeHash(start, n));
      return;
    }
    const k = largestPowerOfTwoBelow(n);
    if (m <= k) {
      this.#subproof(m, start, k, complete, out);
      out.push(this.#subtreeHash(start + k, n - k));
    } else {
      this.#subproof(m - k, start + k, n - k, false, out);
      out.push(this.#subtreeHash(start, k));
    }
  }

  #checkSize(size: number, what: string): void {
    if (!Number.isSafeInteger(size) || size < 0 || size > this.size) {
      throw new InvalidInputError(`${what}: expected an integer from 0 to ${this.size}, got ${size}`);
    }
  }

  #checkIndex(index: number, size: number, what: string): void {
    if (!Number.isSafeInteger(index) || index < 0 || index >= size) {
      throw new InvalidInputError(`${what}: expected an integer from 0 to ${size - 1}, got ${index}`);
    }
  }
}
