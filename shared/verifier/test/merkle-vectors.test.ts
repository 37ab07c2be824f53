/**
 * The published RFC 6962 vectors (../shared/vectors/merkle) through the verifier's own files, not only
 * through @pentagate/crypto: `verify inclusion` and `verify consistency` add the checkpoint, the audit-path
 * length check and the size checks, and none of them may turn a good proof away or let a bad one through.
 * A vector is used when it can be written as a verifier file: its leaf is one of the reference leaves
 * (the file carries leaf bytes, not a leaf hash) and its roots are 32 bytes (a signed checkpoint holds one).
 */
import { existsSync } from 'node:fs';
import { TrustStore, leafHash, signCheckpoint } from '@pentagate/crypto';
import { InvalidInputError } from '@pentagate/protocol';
import { type VerificationReport, verifyConsistencyFile, verifyInclusionFile } from '@pentagate/verifier';
import t from 'tap';
import {
  type ConsistencyVector,
  type InclusionVector,
  MERKLE_VECTORS_DIR,
  REFERENCE_LEAVES_HEX,
  b64,
  loadVectors,
} from '../../crypto/test/fixtures/merkle-vectors.js';
import { ORIGIN, noteSigner, trustDocument } from './fixtures/artifacts.js';

const skip = existsSync(MERKLE_VECTORS_DIR) ? false : `no Merkle vectors at ${MERKLE_VECTORS_DIR}`;
const trust = TrustStore.fromDocument(trustDocument());
const b64s = (b: Uint8Array) => Buffer.from(b).toString('base64');

/** A checkpoint note of the vector's root, or undefined when the root is not 32 bytes. */
function note(size: number, root: string): string | undefined {
  const rootHash = b64(root);
  return rootHash.length === 32 ? signCheckpoint({ origin: ORIGIN, size, rootHash }, noteSigner) : undefined;
}

/** valid, invalid (1) or unreadable (2): only valid counts as accepted. */
function verdict(run: () => VerificationReport): string {
  try {
    const report = run();
    return report.valid ? 'valid' : `invalid: ${report.failures.join('; ')}`;
  } catch (err) {
    if (err instanceof InvalidInputError) return `unreadable: ${err.message}`;
    throw err;
  }
}

t.test('inclusion vectors: `verify inclusion` gives each its expected verdict', { skip }, async (t) => {
  const leafOf = new Map(REFERENCE_LEAVES_HEX.map((hex) => [b64s(leafHash(Buffer.from(hex, 'hex'))), hex]));
  let used = 0;
  for (const { name, data: v } of loadVectors<InclusionVector>('inclusion')) {
    const leaf = leafOf.get(v.leafHash);
    const checkpoint = note(v.treeSize, v.root);
    if (leaf === undefined || checkpoint === undefined) continue;
    used++;
    const file = {
      leaf: Buffer.from(leaf, 'hex').toString('base64'),
      leafIndex: v.leafIdx,
      treeSize: v.treeSize,
      hashes: v.proof ?? [],
      checkpoint,
    };
    const got = verdict(() => verifyInclusionFile(file, trust));
    t.equal(got === 'valid', !v.wantErr, `${name}: ${v.desc} (${got})`);
  }
  t.ok(used >= 70, `${used} inclusion vectors written as verifier files`);
});

t.test('consistency vectors: `verify consistency` gives each its expected verdict', { skip }, async (t) => {
  let used = 0;
  for (const { name, data: v } of loadVectors<ConsistencyVector>('consistency')) {
    const oldCheckpoint = note(v.size1, v.root1);
    const newCheckpoint = note(v.size2, v.root2);
    if (oldCheckpoint === undefined || newCheckpoint === undefined) continue;
    used++;
    const file = { oldSize: v.size1, newSize: v.size2, hashes: v.proof ?? [], oldCheckpoint, newCheckpoint };
    const got = verdict(() => verifyConsistencyFile(file, trust));
    t.equal(got === 'valid', !v.wantErr, `${name}: ${v.desc} (${got})`);
  }
  t.ok(used >= 70, `${used} consistency vectors written as verifier files`);
});
