/**
 * The governance token of an envelope this server has just signed. `toGovernanceToken`
 * (@pentagate/crypto) takes any envelope, so it validates the schema and strictly decodes the base64
 * payload and signature before re-encoding them as base64url — measured at ~4 % of a propose, mostly the
 * strict base64 regular expressions. An envelope straight from `dsseSign` is already canonical (one
 * signature, the proof key's id, standard base64), so only the re-encoding is needed. Anything else goes
 * through `toGovernanceToken` and its checks. A test pins both to the same token.
 */
import { GOVERNANCE_TOKEN_PAYLOAD_TYPE, GOVERNANCE_TOKEN_PREFIX, toGovernanceToken } from '@pentagate/crypto';
import type { DsseEnvelope } from '@pentagate/protocol';

export function tokenOfFreshEnvelope(envelope: DsseEnvelope, signerKid: string): string {
  const [signature, ...others] = envelope.signatures;
  if (
    envelope.payloadType !== GOVERNANCE_TOKEN_PAYLOAD_TYPE ||
    !signature ||
    others.length > 0 ||
    signature.keyid !== signerKid
  ) {
    return toGovernanceToken(envelope);
  }
  const payload = Buffer.from(envelope.payload, 'base64').toString('base64url');
  const sig = Buffer.from(signature.sig, 'base64').toString('base64url');
  return `${GOVERNANCE_TOKEN_PREFIX}.${signature.keyid}.${payload}.${sig}`;
}
