/**
 * RFC 6962 Merkle throughput at a realistic audit-log size (100,000 leaves): append (leaf hash +
 * amortised node hashes), the root, inclusion and consistency proof generation and verification.
 * Proofs are taken at spread-out indices and sizes, not at one convenient leaf.
 */
import { MerkleTree, leafHash, verifyConsistency, verifyInclusion } from '@pentagate/crypto';
import { type SectionResult, type SuiteContext, measureSync, sectionOf } from '../harness/index.js';
import { sampleAuditLeaf, spreadIndices } from '../fixtures/audit-leaves.js';

const FULL_TREE_SIZE = 100_000;
const PROOF_SAMPLES = 1_000;

export function benchMerkle(ctx: SuiteContext): SectionResult {
  const size = ctx.size(FULL_TREE_SIZE, 2_000);
  const leaves = Array.from({ length: size }, (_, i) => sampleAuditLeaf(i));
  const tree = new MerkleTree();
  // The warm-up appends are the tree's first leaves, so the tree ends with exactly `size` leaves.
  // `size` already honours --quick, hence the unscaled measureSync.
  const warmupIterations = Math.floor(size / 10);
  const append = measureSync('merkleAppend', (i) => tree.append(leaves[i] as Uint8Array), {
    iterations: size - warmupIterations,
    warmupIterations,
  });
  if (tree.size !== size) throw new Error(`crypto bench: expected ${size} leaves, got ${tree.size}`);
  const root = tree.rootHash();
  const rootHash = ctx.measureSync('merkleRootHash', () => tree.rootHash(), { iterations: 10_000 });

  const indices = spreadIndices(PROOF_SAMPLES, size, 7);
  const leafHashes = indices.map((i) => leafHash(leaves[i] as Uint8Array));
  const proofs = indices.map((i) => tree.inclusionProof(i));
  const pick = <T>(list: T[], i: number): T => list[i % list.length] as T;
  const inclusionProve = ctx.measureSync(
    'merkleInclusionProof',
    (i) => tree.inclusionProof(pick(indices, i)),
    {
      iterations: 20_000,
    },
  );
  const inclusionVerify = ctx.measureSync(
    'merkleInclusionVerify',
    (i) => {
      const k = i % PROOF_SAMPLES;
      if (!verifyInclusion(pick(leafHashes, k), pick(indices, k), size, pick(proofs, k), root)) {
        throw new Error(`crypto bench: inclusion proof for leaf ${pick(indices, k)} does not verify`);
      }
    },
    { iterations: 20_000 },
  );

  const oldSizes = spreadIndices(PROOF_SAMPLES, size - 1, 11).map((n) => n + 1);
  const oldRoots = oldSizes.map((n) => tree.rootHash(n));
  const consistencyProofs = oldSizes.map((n) => tree.consistencyProof(n));
  const consistencyProve = ctx.measureSync(
    'merkleConsistencyProof',
    (i) => tree.consistencyProof(pick(oldSizes, i)),
    { iterations: 20_000 },
  );
  const consistencyVerify = ctx.measureSync(
    'merkleConsistencyVerify',
    (i) => {
      const k = i % PROOF_SAMPLES;
      if (!verifyConsistency(pick(oldSizes, k), size, pick(oldRoots, k), root, pick(consistencyProofs, k))) {
        throw new Error(`crypto bench: consistency proof from size ${pick(oldSizes, k)} does not verify`);
      }
    },
    { iterations: 20_000 },
  );

  const mean = (lists: Uint8Array[][]): number => lists.reduce((s, p) => s + p.length, 0) / lists.length;
  const leafBytes = leaves.reduce((s, l) => s + l.length, 0) / leaves.length;
  return sectionOf([append, rootHash, inclusionProve, inclusionVerify, consistencyProve, consistencyVerify], {
    figures: {
      'merkle.treeSize': size,
      'merkle.meanLeafBytes': leafBytes,
      'merkle.meanInclusionProofHashes': mean(proofs),
      'merkle.meanConsistencyProofHashes': mean(consistencyProofs),
    },
    notes: [
      `Merkle: ${size.toLocaleString('en-US')} leaves of JCS audit entries (${leafBytes.toFixed(0)} bytes on ` +
        `average); merkleAppend grows the tree from ${warmupIterations.toLocaleString('en-US')} (warm-up) to ` +
        `${size.toLocaleString('en-US')} leaves; proofs at ${PROOF_SAMPLES} spread-out leaves / old sizes`,
    ],
  });
}
