import { existsSync } from 'node:fs';
import { MerkleTree, leafHash, verifyConsistency, verifyInclusion } from '@pentagate/crypto';
import t from 'tap';
import {
  type ConsistencyVector,
  type InclusionVector,
  MERKLE_VECTORS_DIR,
  REFERENCE_LEAVES_HEX,
  b64,
  loadVectors,
} from './fixtures/merkle-vectors.js';

const skip = existsSync(MERKLE_VECTORS_DIR) ? false : `no Merkle vectors at ${MERKLE_VECTORS_DIR}`;
const b64s = (b: Uint8Array) => Buffer.from(b).toString('base64');

function referenceTree(): MerkleTree {
  const tree = new MerkleTree();
  for (const hex of REFERENCE_LEAVES_HEX) tree.append(Buffer.from(hex, 'hex'));
  return tree;
}

t.test(
  'every inclusion vector (happy, mutated, additional) gets its expected verdict',
  { skip },
  async (t) => {
    const vectors = loadVectors<InclusionVector>('inclusion');
    t.ok(vectors.length >= 80, `found ${vectors.length} inclusion vectors`);
    for (const { name, data: v } of vectors) {
      const ok = verifyInclusion(
        b64(v.leafHash),
        v.leafIdx,
        v.treeSize,
        (v.proof ?? []).map(b64),
        b64(v.root),
      );
      t.equal(ok, !v.wantErr, `${name}: ${v.desc}`);
    }
  },
);

t.test(
  'every consistency vector (happy, mutated, additional) gets its expected verdict',
  { skip },
  async (t) => {
    const vectors = loadVectors<ConsistencyVector>('consistency');
    t.ok(vectors.length >= 80, `found ${vectors.length} consistency vectors`);
    for (const { name, data: v } of vectors) {
      const ok = verifyConsistency(v.size1, v.size2, b64(v.root1), b64(v.root2), (v.proof ?? []).map(b64));
      t.equal(ok, !v.wantErr, `${name}: ${v.desc}`);
    }
  },
);

t.test('the tree reproduces the happy-path roots and proofs of the reference tree', { skip }, async (t) => {
  const tree = referenceTree();
  const inclusion = loadVectors<InclusionVector>('inclusion').filter((v) => !v.data.wantErr);
  let checked = 0;
  for (const { name, data: v } of inclusion) {
    if (v.treeSize > tree.size || b64s(tree.leafHashAt(v.leafIdx)) !== v.leafHash) continue;
    t.equal(b64s(tree.rootHash(v.treeSize)), v.root, `${name}: root`);
    t.same(tree.inclusionProof(v.leafIdx, v.treeSize).map(b64s), v.proof ?? [], `${name}: proof`);
    checked++;
  }
  t.ok(checked >= 4, `${checked} inclusion happy paths rebuilt`);
  for (const { name, data: v } of loadVectors<ConsistencyVector>('consistency')) {
    if (v.wantErr || !name.match(/^consistency\/\d/)) continue;
    t.equal(b64s(tree.rootHash(v.size1)), v.root1, `${name}: old root`);
    t.equal(b64s(tree.rootHash(v.size2)), v.root2, `${name}: new root`);
    t.same(tree.consistencyProof(v.size1, v.size2).map(b64s), v.proof ?? [], `${name}: proof`);
  }
  t.equal(b64s(leafHash(new Uint8Array())), 'bjQLnP+zepicpUTmu3gKLHiQHT+zNzh2hRGjBhevoB0=');
});
