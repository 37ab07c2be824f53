/**
 * The governance token: the compact form of a single-signature proof envelope,
 *   pgt1.<kid>.<base64url(payload)>.<base64url(sig)>
 * with payloadType implied: application/vnd.in-toto+json. The signature is the same DSSE signature
 * over PAE, so a token and its envelope convert both ways without re-signing.
 */
import {
  InvalidInputError,
  fromBase64,
  fromBase64Url,
  toBase64,
  toBase64Url,
  validate,
} from '@pentagate/protocol';
import { type DsseEnvelope, DsseEnvelopeSchema } from '@pentagate/protocol';

export const GOVERNANCE_TOKEN_PREFIX = 'pgt1';
export const GOVERNANCE_TOKEN_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
/** Key ids in tokens: no dots (the separator), nothing that needs escaping. */
const KID_RE = /^[A-Za-z0-9_:-]{1,128}$/;
export const MAX_GOVERNANCE_TOKEN_CHARS = 64 * 1024;

export function toGovernanceToken(envelope: DsseEnvelope): string {
  const env = validate(DsseEnvelopeSchema, envelope, 'envelope');
  if (env.payloadType !== GOVERNANCE_TOKEN_PAYLOAD_TYPE) {
    throw new InvalidInputError(
      `envelope.payloadType: expected ${GOVERNANCE_TOKEN_PAYLOAD_TYPE} for a governance token, got ${JSON.stringify(env.payloadType)}`,
    );
  }
  if (env.signatures.length !== 1) {
    throw new InvalidInputError(
      `envelope.signatures: expected exactly 1 for a governance token, got ${env.signatures.length}`,
    );
  }
  const { keyid, sig } = env.signatures[0] as { keyid: string; sig: string };
  if (!KID_RE.test(keyid)) {
    throw new InvalidInputError(
      `envelope.signatures[0].keyid: expected [A-Za-z0-9_:-]{1,128}, got ${JSON.stringify(keyid)}`,
    );
  }
  const payload = fromBase64(env.payload, 'envelope.payload');
  const signature = fromBase64(sig, 'envelope.signatures[0].sig', 64);
  return `${GOVERNANCE_TOKEN_PREFIX}.${keyid}.${toBase64Url(payload)}.${toBase64Url(signature)}`;
}

/** Parses a token strictly into the envelope it abbreviates (verify that with dsseVerify). */
export function fromGovernanceToken(token: unknown): DsseEnvelope {
  if (typeof token !== 'string') {
    throw new InvalidInputError(`governance token: expected a string, got ${typeof token}`);
  }
  if (token.length > MAX_GOVERNANCE_TOKEN_CHARS) {
    throw new InvalidInputError(
      `governance token: expected at most ${MAX_GOVERNANCE_TOKEN_CHARS} characters, got ${token.length}`,
    );
  }
  const parts = token.split('.');
  if (parts.length !== 4) {
    throw new InvalidInputError(
      `governance token: expected 4 dot-separated parts (pgt1.kid.payload.sig), got ${parts.length}`,
    );
  }
  const [prefix, kid, payload, sig] = parts as [string, string, string, string];
  if (prefix !== GOVERNANCE_TOKEN_PREFIX) {
    throw new InvalidInputError(
      `governance token: expected prefix "pgt1", got ${JSON.stringify(prefix.slice(0, 16))}`,
    );
  }
  if (!KID_RE.test(kid)) {
    throw new InvalidInputError(
      `governance token kid: expected [A-Za-z0-9_:-]{1,128}, got ${JSON.stringify(kid.slice(0, 40))}`,
    );
  }
  const payloadBytes = fromBase64Url(payload, 'governance token payload');
  if (payloadBytes.length === 0)
    throw new InvalidInputError('governance token payload: expected bytes, got none');
  const signature = fromBase64Url(sig, 'governance token signature', 64);
  return {
    payloadType: GOVERNANCE_TOKEN_PAYLOAD_TYPE,
    payload: toBase64(payloadBytes),
    signatures: [{ keyid: kid, sig: toBase64(signature) }],
  };
}
