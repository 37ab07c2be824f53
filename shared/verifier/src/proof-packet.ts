/**
 * Proof packets (ARCHITECTURE.md §5): the decision's DSSE envelope and, when the decision was logged, the audit
 * entry that records it, its inclusion proof and the signed checkpoint the proof leads to.
 *
 * What ties the four together: the entry's `subjectDigest` is `envelopeDigest(envelope)` (so the entry is
 * about this exact envelope), the entry's `index` is the statement's `auditLog.index` and the proof's
 * `leafIndex`, the statement's `auditLog.origin` is the checkpoint's origin, and the leaf hash of the
 * entry's JCS bytes reaches the checkpoint root.
 */
import { type TrustStore, envelopeDigest, leafHash } from '@pentagate/crypto';
import {
  type AuditEntry,
  type DecisionStatement,
  type DsseEnvelope,
  type InclusionProof,
  ProofPacketSchema,
  canonicalBytes,
  validate,
} from '@pentagate/protocol';
import { checkCheckpointSignature } from './checkpoint.js';
import { type DecisionCheckOptions, checkDecisionEnvelope, checkRequestBinding } from './decision-checks.js';
import { checkInclusionUnder } from './inclusion.js';
import { ReportBuilder, type VerificationReport } from './report.js';

export interface ProofPacketOptions extends DecisionCheckOptions {
  /**
   * The request the decision must be for (parsed JSON: the propose or selfcorrect body as sent). Without
   * it, the packet of any decision verifies, whichever call it is shown for.
   */
  request?: unknown;
}

interface Anchoring {
  auditEntry: AuditEntry;
  inclusion: InclusionProof;
  checkpoint: string;
}

function checkAnchoring(
  report: ReportBuilder,
  envelope: DsseEnvelope,
  statement: DecisionStatement | undefined,
  anchoring: Anchoring,
  trust: TrustStore,
  options: ProofPacketOptions,
): void {
  const { auditEntry, inclusion } = anchoring;
  const digest = envelopeDigest(envelope);
  report.check(
    'audit entry binds the envelope',
    auditEntry.subjectDigest === digest,
    `entry ${auditEntry.index} (${auditEntry.type}) has subjectDigest ${digest}`,
    `expected the entry's subjectDigest to be the envelope digest ${digest}, got ` +
      `${auditEntry.subjectDigest ?? 'none'}`,
  );
  const statementIndex = statement?.predicate.auditLog.index;
  report.check(
    'audit entry index',
    auditEntry.index === inclusion.leafIndex &&
      (statement === undefined || auditEntry.index === statementIndex),
    `entry index ${auditEntry.index} equals the proof's leafIndex` +
      (statement ? " and the statement's auditLog.index" : ''),
    `expected one index, got entry ${auditEntry.index}, proof leafIndex ${inclusion.leafIndex}` +
      (statement ? `, statement auditLog.index ${statementIndex}` : ''),
  );
  const cp = checkCheckpointSignature(report, anchoring.checkpoint, trust, options);
  if (!cp) return;
  if (statement) {
    const origin = statement.predicate.auditLog.origin;
    report.check(
      'audit log origin',
      origin === cp.origin,
      `the statement's auditLog.origin is the checkpoint's origin ${JSON.stringify(cp.origin)}`,
      `expected the statement's auditLog.origin to be the checkpoint's ${JSON.stringify(cp.origin)}, ` +
        `got ${JSON.stringify(origin)}`,
    );
  }
  checkInclusionUnder(report, leafHash(canonicalBytes(auditEntry)), inclusion, cp);
}

/** `pentagate verify proof`: a proof packet against the trust file. */
export function verifyProofPacket(
  packet: unknown,
  trust: TrustStore,
  options: ProofPacketOptions = {},
): VerificationReport {
  const p = validate(ProofPacketSchema, packet, 'proof packet');
  const report = new ReportBuilder('proof packet (statement not verified)');
  const statement = checkDecisionEnvelope(report, p.envelope, trust, options);
  if (statement && options.request !== undefined) {
    checkRequestBinding(report, statement, options.request, 'the proof');
  }

  const parts = { auditEntry: p.auditEntry, inclusion: p.inclusion, checkpoint: p.checkpoint };
  const present = Object.entries(parts).filter(([, v]) => v !== undefined);
  if (present.length === 0) {
    report.pass(
      'audit log',
      'not anchored: the packet carries no audit entry, so only the signature was checked',
    );
  } else if (p.auditEntry && p.inclusion && p.checkpoint !== undefined) {
    checkAnchoring(
      report,
      p.envelope,
      statement,
      { auditEntry: p.auditEntry, inclusion: p.inclusion, checkpoint: p.checkpoint },
      trust,
      options,
    );
  } else {
    const missing = Object.entries(parts).filter(([, v]) => v === undefined);
    report.fail(
      'audit log',
      `expected auditEntry, inclusion and checkpoint together, got ${present.map(([k]) => k).join(', ')} ` +
        `without ${missing.map(([k]) => k).join(', ')}`,
    );
  }
  return report.finish(options.atMs);
}
