/**
 * The steps every DSSE artifact goes through (proof packets, governance tokens, consent tokens, signed
 * entries of an audit kit): signature by a trusted key of the expected role, that key's validity window at
 * the moment that matters, and the signed statement against its schema.
 */
import { type TrustStore, dsseVerify } from '@pentagate/crypto';
import {
  type DsseEnvelope,
  InvalidInputError,
  type KeyRole,
  readJson,
  schemaIssues,
} from '@pentagate/protocol';
import type { Static, TSchema } from '@sinclair/typebox';
import type { ReportBuilder } from './report.js';
import { isoOf } from './time.js';

export interface EnvelopeExpectation {
  /** The key role(s) allowed to sign this kind of statement. */
  role: KeyRole | KeyRole[];
  /** The DSSE payloadType the signature must cover. */
  payloadType: string;
}

export interface VerifiedEnvelope {
  payload: Uint8Array;
  keyid: string;
}

function describeKey(trust: TrustStore, kid: string): string {
  const key = trust.get(kid);
  if (!key) return `key ${kid}`;
  return `${key.role} key ${kid}${key.name ? ` (${key.name})` : ''}`;
}

/**
 * Checks the envelope signature. A key id missing from the trust file fails the check naming the kid, and
 * is marked unreadable: nothing can be verified against that trust file (exit 2).
 */
export function checkEnvelopeSignature(
  report: ReportBuilder,
  envelope: DsseEnvelope,
  trust: TrustStore,
  expected: EnvelopeExpectation,
): VerifiedEnvelope | undefined {
  const name = 'envelope signature';
  const kids = envelope.signatures.map((s) => s.keyid);
  if (!kids.some((kid) => trust.get(kid) !== undefined)) {
    const listed = trust.keys().map((k) => k.kid);
    report.fail(
      name,
      `unknown key id ${kids.map((k) => JSON.stringify(k)).join(', ')}: expected one of the trust file's keys ` +
        `(${listed.length > 0 ? listed.join(', ') : 'it lists none'})`,
      { unreadable: true },
    );
    return undefined;
  }
  return report.attempt(
    name,
    () => dsseVerify(envelope, trust, { role: expected.role, payloadType: expected.payloadType }),
    (v) => `valid Ed25519 signature over ${expected.payloadType} by ${describeKey(trust, v.keyid)}`,
  );
}

/** Checks that the signing key's validity window in the trust file covers `atMs` (`when` says why). */
export function checkSigningKeyValidAt(
  report: ReportBuilder,
  envelope: DsseEnvelope,
  trust: TrustStore,
  expected: EnvelopeExpectation,
  atMs: number,
  when: string,
): string | undefined {
  const verified = report.attempt(
    `signing key valid ${when}`,
    () => dsseVerify(envelope, trust, { ...expected, atMs }),
    (v) => {
      const key = trust.get(v.keyid);
      const from = key?.notBefore ?? 'always';
      const until = key?.notAfter ?? 'no end';
      return `${describeKey(trust, v.keyid)} is valid from ${from} until ${until}, covering ${isoOf(atMs)}`;
    },
  );
  return verified?.keyid;
}

/**
 * Parses the signed payload and checks it against the statement schema. The payload is authentic at this
 * point, so a payload that does not conform is an INVALID artifact (a failed check), not unreadable input.
 */
export function checkSignedStatement<T extends TSchema>(
  report: ReportBuilder,
  name: string,
  payload: Uint8Array,
  schema: T,
): Static<T> | undefined {
  let value: unknown;
  try {
    value = readJson(payload, { what: `${name} payload`, maxBytes: payload.length });
  } catch (err) {
    if (err instanceof InvalidInputError) {
      report.fail(name, err.message);
      return undefined;
    }
    throw err;
  }
  const issues = schemaIssues(schema, value);
  if (issues.length > 0) {
    const shown = issues.slice(0, 5).map((i) => `${i.path || '/'}: ${i.message}`);
    report.fail(name, `does not match the schema: ${shown.join('; ')}`);
    return undefined;
  }
  report.pass(name, 'matches the schema');
  return value as Static<T>;
}
