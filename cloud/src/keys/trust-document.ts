/**
 * `GET /api/v1/keys`: every signing key this log has used, with its role and validity window, as a
 * TrustDocument — so a saved response is a trust file for `pentagate verify` (contract: TrustDocumentSchema).
 * Old keys stay listed so proofs signed before a rotation still verify.
 */
import type { TrustDocument, TrustedKey } from '@pentagate/protocol';
import type { SigningKeyRecord } from '../store/records.js';

export function trustDocumentOf(records: readonly SigningKeyRecord[]): TrustDocument {
  const keys = records
    .filter((r) => r.role === 'proof' || r.role === 'checkpoint')
    .map((r): TrustedKey => {
      const key: TrustedKey = {
        kid: r.kid,
        alg: 'Ed25519',
        role: r.role as TrustedKey['role'],
        publicKey: r.publicKey,
        notBefore: new Date(r.notBeforeMs).toISOString(),
      };
      if (r.notAfterMs !== null) key.notAfter = new Date(r.notAfterMs).toISOString();
      if (r.name !== null) key.name = r.name;
      return key;
    });
  return { keys };
}
