import {
  EMPTY_ROOT,
  MerkleTree,
  leafHash,
  nodeHash,
  verifyConsistency,
  verifyInclusion,
} from '@pentagate/crypto';
import fc from 'fast-check';
import t from 'tap';

/** A tree with `n` leaves "leaf-0", "leaf-1", …, plus the naive RFC 6962 MTH for cross-checking. */
function treeOf(n: number): MerkleTree {
  const tree = new MerkleTree();
  for (let i = 0; i < n; i++) tree.append(Buffer.from(`leaf-${i}`));
  return tree;
}

function naiveRoot(hashes: Uint8Array[]): Uint8Array {
  if (hashes.length === 0) return EMPTY_ROOT;
  if (hashes.length === 1) return hashes[0] as Uint8Array;
  let k = 1;
  while (k * 2 < hashes.length) k *= 2;
  return nodeHash(naiveRoot(hashes.slice(0, k)), naiveRoot(hashes.slice(k)));
}

function flipped(bytes: Uint8Array, at: number, xor: number): Uint8Array {
  const out = new Uint8Array(bytes);
  out[at % out.length] = (out[at % out.length] as number) ^ xor;
  return out;
}

const sizes = fc.integer({ min: 1, max: 300 });

t.test('roots match the recursive RFC 6962 definition for every prefix', async (t) => {
  const tree = treeOf(70);
  const hashes = Array.from({ length: 70 }, (_, i) => leafHash(Buffer.from(`leaf-${i}`)));
  for (let size = 0; size <= 70; size++) {
    t.same(tree.rootHash(size), naiveRoot(hashes.slice(0, size)), `size ${size}`);
  }
  t.same(MerkleTree.fromLeafHashes(hashes).rootHash(), tree.rootHash());
  t.same(new MerkleTree().rootHash(), EMPTY_ROOT);
});

t.test('property: every inclusion proof the tree makes verifies; any flipped byte fails', async () => {
  fc.assert(
    fc.property(
      sizes,
      fc.nat(),
      fc.nat(),
      fc.nat(),
      fc.integer({ min: 1, max: 255 }),
      (n, i, pick, at, xor) => {
        const tree = treeOf(n);
        const index = i % n;
        const size = index + 1 + (pick % (n - index));
        const proof = tree.inclusionProof(index, size);
        const root = tree.rootHash(size);
        const leaf = tree.leafHashAt(index);
        if (!verifyInclusion(leaf, index, size, proof, root))
          throw new Error(`valid proof refused ${index}/${size}`);
        if (verifyInclusion(flipped(leaf, at, xor), index, size, proof, root))
          throw new Error('flipped leaf');
        if (verifyInclusion(leaf, index, size, proof, flipped(root, at, xor)))
          throw new Error('flipped root');
        if (proof.length > 0) {
          const k = at % proof.length;
          const bad = proof.map((h, j) => (j === k ? flipped(h, at >> 3, xor) : h));
          if (verifyInclusion(leaf, index, size, bad, root)) throw new Error('flipped proof');
          if (verifyInclusion(leaf, index, size, proof.slice(1), root)) throw new Error('truncated proof');
        }
        if (verifyInclusion(leaf, index, size, [...proof, root], root)) throw new Error('padded proof');
        if (size > 1 && verifyInclusion(leaf, (index + 1) % size, size, proof, root))
          throw new Error('other index');
      },
    ),
    { numRuns: 200 },
  );
});

t.test('property: every consistency proof the tree makes verifies; any flipped byte fails', async () => {
  fc.assert(
    fc.property(sizes, fc.nat(), fc.nat(), fc.integer({ min: 1, max: 255 }), (n, pick, at, xor) => {
      const tree = treeOf(n);
      const oldSize = 1 + (pick % n);
      const proof = tree.consistencyProof(oldSize, n);
      const oldRoot = tree.rootHash(oldSize);
      const newRoot = tree.rootHash(n);
      if (!verifyConsistency(oldSize, n, oldRoot, newRoot, proof))
        throw new Error(`refused ${oldSize}->${n}`);
      if (verifyConsistency(oldSize, n, flipped(oldRoot, at, xor), newRoot, proof))
        throw new Error('old root');
      if (verifyConsistency(oldSize, n, oldRoot, flipped(newRoot, at, xor), proof))
        throw new Error('new root');
      if (proof.length > 0) {
        const k = at % proof.length;
        const bad = proof.map((h, j) => (j === k ? flipped(h, at >> 3, xor) : h));
        if (verifyConsistency(oldSize, n, oldRoot, newRoot, bad)) throw new Error('flipped proof');
        if (verifyConsistency(oldSize, n, oldRoot, newRoot, proof.slice(0, -1))) throw new Error('truncated');
      }
      if (verifyConsistency(oldSize, n, oldRoot, newRoot, [...proof, newRoot])) throw new Error('padded');
    }),
    { numRuns: 200 },
  );
});

t.test('verifiers refuse malformed arguments instead of throwing', async (t) => {
  const tree = treeOf(5);
  const proof = tree.inclusionProof(1);
  const root = tree.rootHash();
  const leaf = tree.leafHashAt(1);
  t.notOk(verifyInclusion(leaf, 1.5, 5, proof, root), 'fractional index');
  t.notOk(verifyInclusion(leaf, -1, 5, proof, root), 'negative index');
  t.notOk(verifyInclusion(leaf, 5, 5, proof, root), 'index == size');
  t.notOk(verifyInclusion(leaf.subarray(1), 1, 5, proof, root), 'short leaf hash');
  t.notOk(verifyInclusion(leaf, 1, 5, [...proof.slice(0, 2), new Uint8Array(31)], root), 'short proof hash');
  t.notOk(verifyInclusion(leaf, 1, 5, 'x' as unknown as Uint8Array[], root), 'not an array');
  t.notOk(verifyConsistency(3, 2, root, root, []), 'old > new');
  t.notOk(verifyConsistency(0, 5, root, root, proof), 'from the empty tree');
  t.notOk(verifyConsistency(2, 5, root, root, []), 'empty proof');
  t.ok(verifyConsistency(0, 0, EMPTY_ROOT, EMPTY_ROOT, []), 'empty to empty');
  t.notOk(verifyConsistency(Number.NaN, 5, root, root, proof), 'NaN size');
  t.notOk(verifyConsistency(2, 5, root.subarray(1), root, tree.consistencyProof(2)), 'short old root');
});

t.test('the tree refuses bad sizes, indexes and hashes with clear errors', async (t) => {
  const tree = treeOf(4);
  t.throws(() => tree.rootHash(5), {
    code: 'INVALID_INPUT',
    message: 'tree size: expected an integer from 0 to 4, got 5',
  });
  t.throws(() => tree.inclusionProof(4), { message: 'leaf index: expected an integer from 0 to 3, got 4' });
  t.throws(() => tree.inclusionProof(0, 0), /leaf index/);
  t.throws(() => tree.consistencyProof(3, 2), /old tree size: expected at most the new size 2, got 3/);
  t.throws(() => tree.leafHashAt(-1), /leaf index/);
  t.throws(() => tree.appendLeafHash(new Uint8Array(31)), {
    message: 'leaf hash: expected 32 bytes, got 31',
  });
  t.throws(
    () => MerkleTree.fromLeafHashes([new Uint8Array(32), new Uint8Array(3)]),
    /leaf hash 1: expected 32 bytes/,
  );
  t.throws(() => tree.append('text' as unknown as Uint8Array), /leaf: expected a Uint8Array/);
  t.same(tree.consistencyProof(0), [], 'nothing to prove from the empty tree');
  t.same(tree.consistencyProof(4), [], 'nothing to prove for equal sizes');
  t.equal(tree.appendLeafHash(leafHash(Buffer.from('x'))), 4, 'returns the new index');
  t.equal(tree.size, 5);
});

t.test('returned hashes are copies: changing them does not change the tree', async (t) => {
  const tree = treeOf(4);
  const root = tree.rootHash();
  tree.rootHash().fill(0);
  tree.inclusionProof(0)[0]?.fill(0);
  tree.leafHashAt(1).fill(0);
  t.same(tree.rootHash(), root);
  t.ok(verifyInclusion(tree.leafHashAt(1), 1, 4, tree.inclusionProof(1), root));
});
