/**
 * Consistency of two signed checkpoints of one log (RFC 6962 §2.1.2): the newer tree extends the older
 * one, so nothing the older checkpoint committed to was rewritten or dropped.
 *
 * Consistency file (JSON): `{ oldSize, newSize, hashes: base64[], oldCheckpoint, newCheckpoint }` — the
 * log's consistency proof plus the two signed notes it connects.
 */
import { type TrustStore, verifyConsistency } from '@pentagate/crypto';
import { ConsistencyProofSchema, validate } from '@pentagate/protocol';
import { type Static, Type } from '@sinclair/typebox';
import { type CheckpointCheckOptions, checkCheckpointSignature } from './checkpoint.js';
import { decodeProofHashes } from './inclusion.js';
import { ReportBuilder, type VerificationReport } from './report.js';

export const ConsistencyFileSchema = Type.Object(
  {
    ...ConsistencyProofSchema.properties,
    oldCheckpoint: Type.String({ maxLength: 64 * 1024 }),
    newCheckpoint: Type.String({ maxLength: 64 * 1024 }),
  },
  { additionalProperties: false },
);
export type ConsistencyFile = Static<typeof ConsistencyFileSchema>;

/** `pentagate verify consistency`: two checkpoints and the proof that the newer extends the older. */
export function verifyConsistencyFile(
  file: unknown,
  trust: TrustStore,
  options: CheckpointCheckOptions = {},
): VerificationReport {
  const doc = validate(ConsistencyFileSchema, file, 'consistency file');
  const hashes = decodeProofHashes(doc.hashes, 'consistency proof');
  const report = new ReportBuilder(`consistency of sizes ${doc.oldSize} → ${doc.newSize}`);
  const older = checkCheckpointSignature(
    report,
    doc.oldCheckpoint,
    trust,
    options,
    'old checkpoint signature',
  );
  const newer = checkCheckpointSignature(
    report,
    doc.newCheckpoint,
    trust,
    options,
    'new checkpoint signature',
  );
  if (!older || !newer) return report.finish(options.atMs);
  report.subject = `consistency of ${newer.origin} from size ${older.size} to ${newer.size}`;

  const sameLog = report.check(
    'same log',
    older.origin === newer.origin,
    `both checkpoints are of ${JSON.stringify(newer.origin)}`,
    `expected both checkpoints to have one origin, got ${JSON.stringify(older.origin)} and ` +
      `${JSON.stringify(newer.origin)}`,
  );
  const sizesMatch = report.check(
    'proof sizes',
    doc.oldSize === older.size && doc.newSize === newer.size && older.size <= newer.size,
    `the proof connects sizes ${older.size} and ${newer.size}, the checkpoints' sizes`,
    `expected oldSize ${older.size} ≤ newSize ${newer.size} (the checkpoints' sizes), ` +
      `got oldSize ${doc.oldSize} and newSize ${doc.newSize}`,
  );
  if (!sameLog || !sizesMatch) return report.finish(options.atMs);
  // One size, two roots: no proof can connect them, and what that shows is a fork, not a bad proof.
  const forked = older.size === newer.size && !Buffer.from(older.rootHash).equals(newer.rootHash);
  report.check(
    'consistency',
    verifyConsistency(older.size, newer.size, older.rootHash, newer.rootHash, hashes),
    `the tree of size ${newer.size} extends the tree of size ${older.size} (${hashes.length} hashes)`,
    forked
      ? `two different roots for size ${older.size}: the log forked or its history was rewritten ` +
          `(both checkpoints are signed by trusted keys)`
      : `the proof of ${hashes.length} hashes does not show that the tree of size ${newer.size} extends ` +
          `the tree of size ${older.size}`,
  );
  return report.finish(options.atMs);
}
