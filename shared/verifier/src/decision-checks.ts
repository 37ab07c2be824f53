/**
 * The checks shared by a proof packet and a governance token (ARCHITECTURE.md §5, "Proof packet"): the DSSE
 * envelope is signed by a 'proof' key that was valid when the decision was issued, the payload is an
 * in-toto Statement v1 with the Pentagate decision predicate, it names the action by its digest, and
 * (when a time is given) the decision had not expired at that time — except a refusal (DENY, VETOED),
 * which is final: its proof holds at any time after it was issued.
 */
import { isApproval } from './approval.js';
import { type TrustStore, jcsDigestHex } from '@pentagate/crypto';
import {
  type DecisionStatement,
  DecisionStatementSchema,
  type DsseEnvelope,
  PAYLOAD_TYPES,
} from '@pentagate/protocol';
import {
  type EnvelopeExpectation,
  checkEnvelopeSignature,
  checkSignedStatement,
  checkSigningKeyValidAt,
} from './envelope-checks.js';
import type { ReportBuilder } from './report.js';
import { describeWindow, isoOf, parseIsoMs } from './time.js';

export const DECISION_ENVELOPE: EnvelopeExpectation = { role: 'proof', payloadType: PAYLOAD_TYPES.inToto };

/** Outcomes that refuse for good: the proof of one stays in force after its expiresAt (= issuedAt). */
const FINAL_REFUSALS: ReadonlySet<string> = new Set(['DENY', 'VETOED']);

export interface DecisionCheckOptions {
  /** When the decision is being relied on; without it expiry is not evaluated (and the report says so). */
  atMs?: number;
  /**
   * The tenant the decision must be of (the statement's tenantId). A cloud signs every tenant's decisions
   * with one proof key, and the same request body can be sent in two tenants (lobe names are the agent's
   * own name and version): without this, another tenant's approval — made under its policy and budget —
   * verifies for this tenant's call.
   */
  tenantId?: string;
}

/** Runs the decision checks; returns the statement when its signature and schema verified. */
export function checkDecisionEnvelope(
  report: ReportBuilder,
  envelope: DsseEnvelope,
  trust: TrustStore,
  options: DecisionCheckOptions,
): DecisionStatement | undefined {
  const verified = checkEnvelopeSignature(report, envelope, trust, DECISION_ENVELOPE);
  if (!verified) return undefined;
  const statement = checkSignedStatement(
    report,
    'decision statement',
    verified.payload,
    DecisionStatementSchema,
  );
  if (!statement) return undefined;
  const { predicate } = statement;
  report.subject = `decision ${predicate.decisionId} (${predicate.outcome})`;
  report.decision = { outcome: predicate.outcome, approval: isApproval(predicate.outcome) };

  const digests = statement.subject.map((s) => s.digest.sha256);
  report.check(
    'subject digest',
    digests.length > 0,
    `action request sha256:${digests.join(', sha256:')}`,
    'expected the statement to name the action request by its SHA-256 digest, got no subject',
  );

  if (options.tenantId !== undefined) {
    report.check(
      'tenant',
      predicate.tenantId === options.tenantId,
      `a decision of tenant ${predicate.tenantId}`,
      `expected a decision of tenant ${options.tenantId}, got one of tenant ${predicate.tenantId}: ` +
        "another tenant's decision, signed by the same cloud, is no permission here",
    );
  } else {
    // Said even when not checked: the same request can be decided in two tenants of one cloud, and a report
    // that says "for this request" without naming the tenant reads as permission for the reader's own.
    report.pass(
      'tenant',
      `a decision of tenant ${predicate.tenantId}; not checked against yours (--tenant ID): one cloud signs ` +
        "every tenant's decisions with the same key",
    );
  }

  const issuedAtMs = parseIsoMs(predicate.issuedAt);
  const expiresAtMs = parseIsoMs(predicate.expiresAt);
  if (issuedAtMs === undefined || expiresAtMs === undefined || expiresAtMs < issuedAtMs) {
    report.fail(
      'decision times',
      `expected issuedAt ≤ expiresAt as RFC 3339 timestamps, got ${predicate.issuedAt} and ${predicate.expiresAt}`,
    );
    return statement;
  }
  // A key that was valid when it signed keeps its signatures valid after it is rotated out (notAfter).
  const keyid = checkSigningKeyValidAt(report, envelope, trust, DECISION_ENVELOPE, issuedAtMs, 'at issuedAt');
  // But what it permits ends when the key does. issuedAt is the signer's word: whoever holds a retired key's
  // private half could otherwise backdate a statement into the key's window and let it run to any expiresAt.
  const keyEnd = keyid === undefined ? undefined : trust.get(keyid)?.notAfter;
  const keyEndMs = keyEnd === undefined ? undefined : parseIsoMs(keyEnd);
  const cut = keyEndMs !== undefined && keyEndMs < expiresAtMs;
  const endsMs = cut ? keyEndMs : expiresAtMs;
  const ends = cut
    ? `${isoOf(endsMs)}, when its signing key was retired (it says ${predicate.expiresAt})`
    : predicate.expiresAt;

  if (options.atMs === undefined) {
    report.pass('expiry', `not evaluated: no time given; the decision is valid until ${ends}`);
  } else if (FINAL_REFUSALS.has(predicate.outcome) && options.atMs >= issuedAtMs) {
    // expiresAt bounds what a decision permits; a refusal permits nothing, and stays a refusal
    report.pass('expiry', `not applicable: a ${predicate.outcome} is final (issued ${predicate.issuedAt})`);
  } else {
    const problem = describeWindow(options.atMs, issuedAtMs, endsMs);
    report.check(
      'expiry',
      problem === undefined,
      `in force at ${isoOf(options.atMs)} (issued ${predicate.issuedAt}, expires ${ends})`,
      problem === undefined ? '' : cut ? `${problem}: its signing key was retired then` : problem,
    );
  }
  return statement;
}

/**
 * With the request a decision is shown for (the propose or selfcorrect body as sent): its SHA-256(JCS) must
 * be a subject digest of the statement. A correctly signed decision of another call verifies otherwise:
 * `what` names the artifact in the report ("the token", "the proof").
 */
export function checkRequestBinding(
  report: ReportBuilder,
  statement: DecisionStatement,
  request: unknown,
  what: string,
): boolean {
  const digest = jcsDigestHex(request);
  const subjects = statement.subject.map((s) => s.digest.sha256);
  return report.check(
    'binds the request',
    subjects.includes(digest),
    `${what} is for this request: SHA-256(JCS(request)) ${digest}`,
    `expected the subject digest to be SHA-256(JCS(request)) ${digest}, got ${subjects.join(', ')}: ` +
      `${what} was issued for another call`,
  );
}
