/**
 * Governance tokens: the compact form `pgt1.<kid>.<base64url(payload)>.<base64url(sig)>` of a decision's
 * DSSE signature (ARCHITECTURE.md §5). The token is expanded back into the envelope and checked exactly like the
 * envelope of a proof packet.
 */
import { type TrustStore, fromGovernanceToken } from '@pentagate/crypto';
import {
  DsseEnvelopeSchema,
  InvalidInputError,
  describeValue,
  readJson,
  validate,
} from '@pentagate/protocol';
import { type DecisionCheckOptions, checkDecisionEnvelope } from './decision-checks.js';
import { ReportBuilder, type VerificationReport } from './report.js';

/** `pentagate verify token`: a governance token against the trust file. */
export function verifyGovernanceToken(
  token: string,
  trust: TrustStore,
  options: DecisionCheckOptions = {},
): VerificationReport {
  const envelope = validate(DsseEnvelopeSchema, fromGovernanceToken(token.trim()), 'governance token');
  const report = new ReportBuilder('governance token (statement not verified)');
  checkDecisionEnvelope(report, envelope, trust, options);
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
        `got ${describeValue(token)}`,
    );
  }
  return token;
}
