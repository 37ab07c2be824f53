/**
 * DSSE v1 envelopes as the cloud makes them (ARCHITECTURE.md §5): sign a decision statement (JCS payload,
 * PAE, Ed25519) and verify it against a trust store (schema check, base64, role, signature).
 */
import { TrustStore, createEd25519Signer, dsseSignStatement, dsseVerify } from '@pentagate/crypto';
import { PAYLOAD_TYPES, toBase64Url } from '@pentagate/protocol';
import { type SectionResult, type SuiteContext, sectionOf } from '../harness/index.js';
import { sampleDecisionStatement } from '../fixtures/decision-statement.js';
import { BENCH_SEED } from './ed25519-bench.js';

export function benchDsse(ctx: SuiteContext): SectionResult {
  const signer = createEd25519Signer(BENCH_SEED, 'node');
  const trust = TrustStore.fromDocument({
    keys: [{ kid: signer.keyid, alg: 'Ed25519', role: 'proof', publicKey: toBase64Url(signer.publicKey) }],
  });
  const statement = sampleDecisionStatement();
  const envelope = dsseSignStatement(PAYLOAD_TYPES.inToto, statement, signer);
  const options = { role: 'proof' as const, payloadType: PAYLOAD_TYPES.inToto };
  dsseVerify(envelope, trust, options); // throws if the sample is wrong
  const sign = ctx.measureSync(
    'dsseSignStatement',
    () => dsseSignStatement(PAYLOAD_TYPES.inToto, statement, signer),
    {
      iterations: 10_000,
    },
  );
  const verify = ctx.measureSync('dsseVerify', () => dsseVerify(envelope, trust, options), {
    iterations: 10_000,
  });
  const verifyNoble = ctx.measureSync(
    'dsseVerifyNoble',
    () => dsseVerify(envelope, trust, { ...options, backend: 'noble' }),
    { iterations: 1_000 },
  );
  return sectionOf([sign, verify, verifyNoble], {
    figures: { 'dsse.envelopeJsonBytes': JSON.stringify(envelope).length },
    notes: ['DSSE: node backend unless the row says Noble; sign includes JCS of the statement'],
  });
}
