/**
 * Signed entries of an audit kit: an entry whose `data.envelope` is a DSSE envelope (a decision's proof
 * envelope, a consent, a firmware manifest…) must verify against the trust anchor with a key of the role
 * that may sign that payload type, valid when the entry was appended; and when the entry names a
 * `subjectDigest`, it must be that envelope's digest (`envelopeDigest`), as for a proof packet.
 */
import { type TrustStore, dsseVerify, envelopeDigest } from '@pentagate/crypto';
import {
  type AuditEntry,
  DECISION_PREDICATE_TYPE,
  type DsseEnvelope,
  DsseEnvelopeSchema,
  type KeyRole,
  PAYLOAD_TYPES,
  PentagateError,
  conforms,
} from '@pentagate/protocol';
import type { ReportBuilder } from './report.js';
import { parseIsoMs } from './time.js';

/** Which key roles may sign each payload type (contract: KeyRoleSchema). */
export const ROLES_BY_PAYLOAD_TYPE: Readonly<Record<string, KeyRole[]>> = {
  [PAYLOAD_TYPES.inToto]: ['proof', 'edge'],
  [PAYLOAD_TYPES.consent]: ['operator'],
  [PAYLOAD_TYPES.firmware]: ['vendor'],
  [PAYLOAD_TYPES.calibration]: ['calibration'],
  [PAYLOAD_TYPES.custody]: ['custody'],
};

/** The payload's predicateType when it is readable JSON with one; the signature is checked after. */
function predicateTypeOf(envelope: DsseEnvelope): unknown {
  try {
    return (
      JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as { predicateType?: unknown }
    )?.predicateType;
  } catch {
    return undefined;
  }
}

/**
 * The roles that may sign this envelope. A decision statement is the cloud's word: only a 'proof' key signs
 * one (as a proof packet requires), though other in-toto statements may come from an 'edge' key.
 */
function rolesFor(envelope: DsseEnvelope): KeyRole[] | undefined {
  const roles = ROLES_BY_PAYLOAD_TYPE[envelope.payloadType];
  if (
    envelope.payloadType === PAYLOAD_TYPES.inToto &&
    predicateTypeOf(envelope) === DECISION_PREDICATE_TYPE
  ) {
    return ['proof'];
  }
  return roles;
}

/** Returns what is wrong with one entry's envelope, or undefined when it verifies. */
function entryEnvelopeProblem(entry: AuditEntry, envelope: unknown, trust: TrustStore): string | undefined {
  const where = `entry ${entry.index} (${entry.type})`;
  if (!conforms(DsseEnvelopeSchema, envelope)) return `${where}: data.envelope is not a DSSE envelope`;
  const roles = rolesFor(envelope);
  if (!roles) return `${where}: no key role may sign payloadType ${JSON.stringify(envelope.payloadType)}`;
  const atMs = parseIsoMs(entry.at);
  try {
    dsseVerify(envelope, trust, {
      role: roles,
      payloadType: envelope.payloadType,
      ...(atMs === undefined ? {} : { atMs }),
    });
  } catch (err) {
    if (err instanceof PentagateError) return `${where}: ${err.message}`;
    throw err;
  }
  const digest = envelopeDigest(envelope);
  if (entry.subjectDigest !== undefined && entry.subjectDigest !== digest) {
    return `${where}: expected subjectDigest ${digest} (the envelope's digest), got ${entry.subjectDigest}`;
  }
  return undefined;
}

/** Reads a kit's entries one by one (audit-kit.ts streams them) and then reports the check. */
export class EntryEnvelopesCheck {
  readonly #trust: TrustStore;
  #signed = 0;
  #failed = 0;
  /** The first few problems, shown; the rest are counted (a log of a million forged entries must fit). */
  readonly #shown: string[] = [];

  constructor(trust: TrustStore) {
    this.#trust = trust;
  }

  add(entry: AuditEntry): void {
    const envelope = entry.data.envelope;
    if (envelope === undefined) return;
    this.#signed++;
    const problem = entryEnvelopeProblem(entry, envelope, this.#trust);
    if (!problem) return;
    this.#failed++;
    if (this.#shown.length < 5) this.#shown.push(problem);
  }

  finish(report: ReportBuilder): void {
    const more = this.#failed - this.#shown.length;
    const shown = this.#shown.join('; ') + (more > 0 ? `; and ${more} more` : '');
    report.check(
      'signed entries',
      this.#failed === 0,
      this.#signed === 0
        ? 'no entry carries a DSSE envelope'
        : `all ${this.#signed} DSSE envelopes in entries verify`,
      `${this.#failed} of ${this.#signed} DSSE envelopes do not verify: ${shown}`,
    );
  }
}
