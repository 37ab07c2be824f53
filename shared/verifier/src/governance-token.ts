/**
 * Governance tokens: the compact form `pgt1.<kid>.<base64url(payload)>.<base64url(sig)>` of a decision's
 * DSSE signature (ARCHITECTURE.md §5). The token is expanded back into the envelope and checked like the
 * envelope of a proof packet, and one check more: a token is the permission to run the tool, so its decision
 * must be an approval (ALLOW, or APPROVED by an operator). Every decision is signed, refusals and pending
 * ones too, and the agent receives those envelopes, so the compact form of a DENY, VETOED, REQUIRE_HUMAN or
 * HELD_FOR_VETO statement is well formed and correctly signed — and must still not verify as a token.
 */
import { type TrustStore, fromGovernanceToken } from '@pentagate/crypto';
import {
  DsseEnvelopeSchema,
  InvalidInputError,
  describeValue,
  readJson,
  validate,
} from '@pentagate/protocol';
import { isApproval } from './approval.js';
import { type DecisionCheckOptions, checkDecisionEnvelope, checkRequestBinding } from './decision-checks.js';
import { ReportBuilder, type VerificationReport } from './report.js';

export interface TokenCheckOptions extends DecisionCheckOptions {
  /**
   * The request the token must be for (parsed JSON: the propose or selfcorrect body as sent); its
   * SHA-256(JCS) must be the statement's subject digest. Without it, a token for any call verifies.
   */
  request?: unknown;
}

/** `pentagate verify token`: a governance token against the trust file. */
export function verifyGovernanceToken(
  token: string,
  trust: TrustStore,
  options: TokenCheckOptions = {},
): VerificationReport {
  const envelope = validate(DsseEnvelopeSchema, fromGovernanceToken(token.trim()), 'governance token');
  const report = new ReportBuilder('governance token (statement not verified)');
  const statement = checkDecisionEnvelope(report, envelope, trust, options);
  if (statement) {
    const { outcome } = statement.predicate;
    report.check(
      'outcome',
      isApproval(outcome),
      `${outcome}: the tool may run`,
      `expected ALLOW or APPROVED, got ${outcome}: a signed decision that is not an approval is no ` +
        'permission to run the tool (verify it as a proof packet with `pentagate verify proof`)',
    );
    if (options.request !== undefined) checkRequestBinding(report, statement, options.request, 'the token');
  }
  return report.finish(options.atMs);
}

/**
 * A token file holds the token itself, or a JSON response that carries it as `governance_token`
 * (the propose response) or `governanceToken`.
 */
export function tokenFromFileText(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return trimmed;
  const doc = readJson(trimmed, { what: 'governance token file' });
  const token =
    (doc as Record<string, unknown>).governance_token ?? (doc as Record<string, unknown>).governanceToken;
  if (typeof token !== 'string') {
    throw new InvalidInputError(
      `governance token file: expected the token text or a JSON object with a "governance_token" string, ` +
        (token === undefined
          ? `got an object without one (members: ${
              Object.keys(doc as object)
                .slice(0, 8)
                .join(', ') || 'none'
            })` +
            ('envelope' in (doc as object) ? '; a proof packet is checked with `pentagate verify proof`' : '')
          : `got ${describeValue(token)} as "governance_token"`),
    );
  }
  return token;
}
