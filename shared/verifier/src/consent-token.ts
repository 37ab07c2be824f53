/**
 * Consent tokens (ARCHITECTURE.md §4): an operator's DSSE statement that allows one high-torque or
 * safety-critical move — a key of role 'operator', a ConsentStatement, a notBefore..expiresAt window, and a
 * binding to the intent by `intentDigest` = SHA-256(JCS(intent)).
 *
 * Not checkable offline: single use. The edge remembers spent nonces; a file cannot show it was not used.
 */
import { type TrustStore, jcsDigestHex } from '@pentagate/crypto';
import { ConsentStatementSchema, DsseEnvelopeSchema, PAYLOAD_TYPES, validate } from '@pentagate/protocol';
import {
  type EnvelopeExpectation,
  checkEnvelopeSignature,
  checkSignedStatement,
  checkSigningKeyValidAt,
} from './envelope-checks.js';
import { ReportBuilder, type VerificationReport } from './report.js';
import { describeWindow, isoOf } from './time.js';

export const CONSENT_ENVELOPE: EnvelopeExpectation = { role: 'operator', payloadType: PAYLOAD_TYPES.consent };

export interface ConsentCheckOptions {
  /** The intent the consent must be for (parsed JSON); its JCS digest must equal `intentDigest`. */
  intent?: unknown;
  /** The robot the consent must be for. */
  robotId?: string;
  /** When the consent is used; the window and the operator key must cover it. */
  atMs?: number;
}

/** `pentagate verify consent`: a consent token (DSSE envelope) against the trust file. */
export function verifyConsentToken(
  envelope: unknown,
  trust: TrustStore,
  options: ConsentCheckOptions = {},
): VerificationReport {
  const env = validate(DsseEnvelopeSchema, envelope, 'consent token');
  const report = new ReportBuilder('consent token (statement not verified)');
  const verified = checkEnvelopeSignature(report, env, trust, CONSENT_ENVELOPE);
  const statement = verified
    ? checkSignedStatement(report, 'consent statement', verified.payload, ConsentStatementSchema)
    : undefined;
  if (!verified || !statement) return report.finish(options.atMs);
  report.subject = `consent of ${statement.operatorId} for ${statement.robotId} (${statement.scope})`;
  // A key enrolled for a named operator (the cloud's registry, GET …/operator-keys) signs for that operator
  // only: the edge and the cloud refuse a statement naming anyone else (edge consent-intake.ts).
  const signer = trust.get(verified.keyid);
  if (signer?.name === undefined) {
    report.pass('operator', `key ${verified.keyid} names no operator in the trust file: it may sign for any`);
  } else {
    report.check(
      'operator',
      signer.name === statement.operatorId,
      `key ${signer.kid} is enrolled for ${signer.name}, the operator the statement names`,
      `key ${signer.kid} is enrolled for operator ${signer.name}, the statement names ${statement.operatorId}`,
    );
  }

  if (statement.expiresAt < statement.notBefore) {
    report.fail(
      'consent window',
      `expected notBefore ≤ expiresAt, got ${statement.notBefore} > ${statement.expiresAt}`,
    );
  } else if (options.atMs === undefined) {
    report.pass(
      'consent window',
      `not evaluated: no time given; valid ${isoOf(statement.notBefore)} to ${isoOf(statement.expiresAt)}`,
    );
  } else {
    const problem = describeWindow(options.atMs, statement.notBefore, statement.expiresAt);
    report.check(
      'consent window',
      problem === undefined,
      `in force at ${isoOf(options.atMs)}`,
      problem ?? '',
    );
  }
  // The operator key must be valid when the consent is used, or (with no time) when it starts.
  const keyAtMs = options.atMs ?? statement.notBefore;
  checkSigningKeyValidAt(
    report,
    env,
    trust,
    CONSENT_ENVELOPE,
    keyAtMs,
    options.atMs === undefined ? 'at notBefore' : 'at the given time',
  );

  if (options.robotId !== undefined) {
    report.check(
      'robot',
      statement.robotId === options.robotId,
      `for robot ${statement.robotId}`,
      `expected consent for robot ${JSON.stringify(options.robotId)}, got ${JSON.stringify(statement.robotId)}`,
    );
  }
  if (options.intent !== undefined) {
    const digest = jcsDigestHex(options.intent);
    report.check(
      'binds the intent',
      statement.intentDigest === digest,
      `intentDigest equals SHA-256(JCS(intent)) ${digest}`,
      `expected intentDigest ${digest} (SHA-256 of the intent's JCS), got ${statement.intentDigest}`,
    );
  } else {
    report.pass('binds the intent', `not evaluated: no intent given; intentDigest ${statement.intentDigest}`);
  }
  return report.finish(options.atMs);
}
