/**
 * Inclusion of one audit-log leaf under a signed checkpoint (RFC 6962 §2.1.1 audit paths, as served by the
 * log). The leaf is the JCS bytes of an audit entry (contract: "The Merkle leaf is canonicalBytes(entry)").
 *
 * Inclusion file (JSON): `{ entry: AuditEntry } | { leaf: base64 }`, plus `leafIndex`, `treeSize`,
 * `hashes: base64[]` (the audit path, leaf to root) and `checkpoint` (the signed note text).
 */
import { type Checkpoint, type TrustStore, leafHash, verifyInclusion } from '@pentagate/crypto';
import {
  AuditEntrySchema,
  InclusionProofSchema,
  InvalidInputError,
  canonicalBytes,
  fromBase64,
  validate,
} from '@pentagate/protocol';
import { type Static, Type } from '@sinclair/typebox';
import { type CheckpointCheckOptions, checkCheckpointSignature } from './checkpoint.js';
import { ReportBuilder, type VerificationReport } from './report.js';

/** The audit path of an inclusion proof, as on the wire. */
export interface InclusionPath {
  leafIndex: number;
  treeSize: number;
  hashes: readonly string[];
}

/** Decodes an audit path; a hash that is not 32 bytes of canonical base64 is unreadable input. */
export function decodeProofHashes(hashes: readonly string[], what: string): Uint8Array[] {
  return hashes.map((h, i) => fromBase64(h, `${what} hashes[${i}]`, 32));
}

/** Checks that `leaf` (a leaf hash) sits at `path.leafIndex` under the checkpoint's root. */
export function checkInclusionUnder(
  report: ReportBuilder,
  leaf: Uint8Array,
  path: InclusionPath,
  checkpoint: Checkpoint,
): boolean {
  const hashes = decodeProofHashes(path.hashes, 'inclusion proof');
  if (
    !report.check(
      'proof tree size',
      path.treeSize === checkpoint.size,
      `the proof is for tree size ${path.treeSize}, the checkpoint's size`,
      `expected the proof's treeSize to equal the checkpoint size ${checkpoint.size}, got ${path.treeSize}`,
    )
  ) {
    return false;
  }
  if (path.leafIndex >= path.treeSize) {
    return report.fail(
      'inclusion in checkpoint',
      `expected leafIndex < treeSize ${path.treeSize}, got ${path.leafIndex}`,
    );
  }
  const expectedLength = inclusionProofLength(path.leafIndex, path.treeSize);
  if (hashes.length !== expectedLength) {
    return report.fail(
      'inclusion in checkpoint',
      `expected an audit path of ${expectedLength} hashes for leaf ${path.leafIndex} of ${path.treeSize} ` +
        `(RFC 6962 §2.1.1), got ${hashes.length}: the proof is truncated or padded`,
      { unreadable: true },
    );
  }
  const included = verifyInclusion(leaf, path.leafIndex, path.treeSize, hashes, checkpoint.rootHash);
  return report.check(
    'inclusion in checkpoint',
    included,
    `leaf ${path.leafIndex} of ${path.treeSize} reaches the checkpoint root with ${hashes.length} hashes`,
    `the audit path of ${hashes.length} hashes from leaf ${path.leafIndex} does not reach the checkpoint root ` +
      `of size ${path.treeSize}`,
  );
}

/** The exact number of hashes in an RFC 6962 audit path: the inner part plus the right border. */
export function inclusionProofLength(leafIndex: number, treeSize: number): number {
  const inner = (leafIndex ^ (treeSize - 1)).toString(2).length - (leafIndex === treeSize - 1 ? 1 : 0);
  const border = Math.floor(leafIndex / 2 ** inner)
    .toString(2)
    .replace(/0/g, '').length;
  return inner + border;
}

export const InclusionFileSchema = Type.Object(
  {
    ...InclusionProofSchema.properties,
    entry: Type.Optional(AuditEntrySchema),
    leaf: Type.Optional(Type.String({ maxLength: 16 * 1024 * 1024 })),
    checkpoint: Type.String({ maxLength: 64 * 1024 }),
  },
  { additionalProperties: false },
);
export type InclusionFile = Static<typeof InclusionFileSchema>;

/** `pentagate verify inclusion`: an entry (or raw leaf) is in the log under a signed checkpoint. */
export function verifyInclusionFile(
  file: unknown,
  trust: TrustStore,
  options: CheckpointCheckOptions = {},
): VerificationReport {
  const doc = validate(InclusionFileSchema, file, 'inclusion file');
  if ((doc.entry === undefined) === (doc.leaf === undefined)) {
    throw new InvalidInputError(
      'inclusion file: expected exactly one of "entry" (an audit entry) or "leaf" (base64 leaf bytes), ' +
        `got ${doc.entry === undefined ? 'neither' : 'both'}`,
    );
  }
  const leafBytes = doc.entry ? canonicalBytes(doc.entry) : fromBase64(doc.leaf, 'inclusion file leaf');
  const report = new ReportBuilder(`leaf ${doc.leafIndex} of ${doc.treeSize}`);
  if (doc.entry) {
    report.subject = `audit entry ${doc.entry.index} (${doc.entry.type})`;
    report.check(
      'entry index',
      doc.entry.index === doc.leafIndex,
      `the entry's index equals the proof's leafIndex ${doc.leafIndex}`,
      `expected the entry's index to equal the proof's leafIndex ${doc.leafIndex}, got ${doc.entry.index}`,
    );
  }
  const cp = checkCheckpointSignature(report, doc.checkpoint, trust, options);
  if (cp) checkInclusionUnder(report, leafHash(leafBytes), doc, cp);
  return report.finish(options.atMs);
}
