import {
  ConsentStatementSchema,
  PAYLOAD_TYPES,
  ValidationError,
  canonicalize,
  toBase64,
  toBase64Url,
} from '@pentagate/protocol';
import {
  SignatureError,
  TrustStore,
  dsseSign,
  dsseSignStatement,
  dsseVerify,
  dsseVerifyStatement,
  envelopeDigest,
  jcsDigestHex,
  pae,
} from '@pentagate/crypto';
import t from 'tap';
import { SMALL_ORDER_KEYS, NON_CANONICAL_IDENTITY } from './fixtures/ed25519-points.js';
import { entryFor, signerFromByte } from './fixtures/keys.js';

const proofSigner = signerFromByte(1);
const operator = signerFromByte(2);
const stranger = signerFromByte(3);
const trust = TrustStore.fromDocument({
  keys: [
    entryFor(proofSigner, 'proof', { notBefore: '2025-01-01T00:00:00Z', notAfter: '2026-01-01T00:00:00Z' }),
    entryFor(operator, 'operator'),
  ],
});
const payload = new TextEncoder().encode('{"hello":"world"}');
const inToto = PAYLOAD_TYPES.inToto;

t.test('PAE is byte-exact DSSE v1', async (t) => {
  // The example from the DSSE v1 protocol description.
  t.equal(
    Buffer.from(pae('http://example.com/HelloWorld', Buffer.from('hello world'))).toString(),
    'DSSEv1 29 http://example.com/HelloWorld 11 hello world',
  );
  t.equal(Buffer.from(pae('', new Uint8Array())).toString(), 'DSSEv1 0  0 ');
  // LEN counts UTF-8 bytes, not characters.
  t.equal(Buffer.from(pae('é', Buffer.from('ü'))).toString(), 'DSSEv1 2 é 2 ü');
});

t.test('sign and verify an envelope on both backends', async (t) => {
  const env = dsseSign(inToto, payload, proofSigner);
  t.same(Object.keys(env).sort(), ['payload', 'payloadType', 'signatures']);
  t.equal(env.payload, toBase64(payload));
  const nobleEnv = dsseSign(inToto, payload, signerFromByte(1, 'noble'));
  t.same(nobleEnv, env, 'byte-identical envelopes');
  for (const backend of ['node', 'noble'] as const) {
    const v = dsseVerify(env, trust, {
      role: 'proof',
      backend,
      payloadType: inToto,
      atMs: Date.parse('2025-06-01T00:00:00Z'),
    });
    t.equal(v.keyid, proofSigner.keyid);
    t.same(v.payload, payload);
    t.equal(v.payloadType, inToto);
  }
});

t.test('a statement round-trips through JCS and its schema', async (t) => {
  const consent = {
    v: 1,
    intentDigest: 'c'.repeat(64),
    robotId: 'arm-7',
    operatorId: 'op-ana',
    scope: 'high-torque',
    notBefore: 1_760_000_000_000,
    expiresAt: 1_760_000_060_000,
    nonce: 'n0nce-0123456789abcdef',
  };
  const env = dsseSignStatement(PAYLOAD_TYPES.consent, consent, operator);
  t.equal(Buffer.from(env.payload, 'base64').toString(), canonicalize(consent));
  const { statement, keyid } = dsseVerifyStatement(env, trust, ConsentStatementSchema, { role: 'operator' });
  t.same(statement, consent);
  t.equal(keyid, operator.keyid);
  const wrongShape = dsseSignStatement(PAYLOAD_TYPES.consent, { v: 1 }, operator);
  t.throws(() => dsseVerifyStatement(wrongShape, trust, ConsentStatementSchema), ValidationError);
  const notJson = dsseSign(PAYLOAD_TYPES.consent, Buffer.from('{'), operator);
  t.throws(
    () => dsseVerifyStatement(notJson, trust, ConsentStatementSchema),
    /envelope payload: expected JSON/,
  );
});

t.test('refuses: wrong role, unknown key, outside the validity window, wrong payloadType', async (t) => {
  const env = dsseSign(inToto, payload, proofSigner);
  t.throws(() => dsseVerify(env, trust, { role: 'operator' }), {
    code: 'SIGNATURE_INVALID',
    message: /has role proof, expected operator/,
  });
  t.throws(() => dsseVerify(dsseSign(inToto, payload, stranger), trust), { message: /is not trusted/ });
  t.throws(
    () => dsseVerify(env, trust, { atMs: Date.parse('2024-12-31T23:59:59Z') }),
    /not valid before 2025-01-01T00:00:00Z/,
  );
  t.throws(
    () => dsseVerify(env, trust, { atMs: Date.parse('2026-01-01T00:00:01Z') }),
    /expired at 2026-01-01T00:00:00Z/,
  );
  t.throws(() => dsseVerify(env, trust, { atMs: Number.NaN }), /not a finite number/);
  t.throws(() => dsseVerify(env, trust, { payloadType: PAYLOAD_TYPES.firmware }), SignatureError);
  t.ok(dsseVerify(env, trust, { role: ['operator', 'proof'] }), 'any of several roles');
});

t.test('a tampered signature by a trusted key fails even when another signature verifies', async (t) => {
  const env = dsseSign(inToto, payload, [operator, proofSigner]);
  t.equal(dsseVerify(env, trust).keyid, operator.keyid);
  const sig = Buffer.from(env.signatures[1]!.sig, 'base64');
  sig[10]! ^= 1;
  const tampered = {
    ...env,
    signatures: [env.signatures[0]!, { ...env.signatures[1]!, sig: sig.toString('base64') }],
  };
  t.throws(() => dsseVerify(tampered, trust), /signatures\[1\]: signature by key .* does not verify/);
  const withStranger = dsseSign(inToto, payload, [stranger, proofSigner]);
  t.equal(dsseVerify(withStranger, trust).keyid, proofSigner.keyid, 'untrusted signatures are ignored');
});

t.test('malformed envelopes get an InvalidInputError naming the field', async (t) => {
  const env = dsseSign(inToto, payload, proofSigner);
  const short = toBase64(Buffer.from(env.signatures[0]!.sig, 'base64').subarray(0, 63));
  t.throws(() => dsseVerify({ ...env, signatures: [{ ...env.signatures[0], sig: short }] }, trust), {
    message: 'envelope.signatures[0].sig: expected 64 bytes, got 63',
  });
  t.throws(() => dsseVerify({ ...env, payload: 'not base64!' }, trust), {
    code: 'INVALID_INPUT',
    message: /envelope: \/payload/,
  });
  t.throws(() => dsseVerify({ ...env, signatures: [] }, trust), ValidationError);
  t.throws(() => dsseVerify('{}', trust), ValidationError);
  t.throws(() => dsseSign(inToto, payload, []), /at least one signer/);
});

t.test('trust store loading is strict', async (t) => {
  const bad = (keys: unknown[]) => () => TrustStore.fromDocument({ keys }, 'trust.json');
  for (const key of [...SMALL_ORDER_KEYS.slice(2, 3), NON_CANONICAL_IDENTITY]) {
    const kid = '0000000000000000';
    t.throws(
      bad([{ kid, alg: 'Ed25519', role: 'proof', publicKey: toBase64Url(key) }]),
      /publicKey: refused/,
    );
  }
  t.throws(bad([{ ...entryFor(proofSigner, 'proof'), kid: operator.keyid }]), {
    message: `trust.json: keys[0].kid: expected ${proofSigner.keyid} (the key id of its publicKey), got ${operator.keyid}`,
  });
  t.throws(bad([entryFor(proofSigner, 'proof'), entryFor(proofSigner, 'checkpoint')]), /duplicate key id/);
  t.throws(
    bad([entryFor(proofSigner, 'proof', { notAfter: '2025-02-31T00:00:00Z' })]),
    /notAfter: expected an ISO 8601/,
  );
  t.throws(
    bad([
      entryFor(proofSigner, 'proof', { notBefore: '2026-01-01T00:00:00Z', notAfter: '2025-01-01T00:00:00Z' }),
    ]),
    /expected notBefore <= notAfter/,
  );
  t.throws(bad([{ ...entryFor(proofSigner, 'proof'), alg: 'RS256' }]), ValidationError);
});

t.test('trust store accessors return copies and round-trip the document', async (t) => {
  const doc = trust.toDocument();
  t.same(TrustStore.fromDocument(doc).toDocument(), doc);
  t.equal(trust.get(operator.keyid)?.role, 'operator');
  t.equal(trust.get(stranger.keyid), undefined);
  t.equal(trust.publicKeyOf(stranger.keyid), undefined);
  const pk = trust.publicKeyOf(operator.keyid)!;
  pk.fill(0);
  t.same(trust.publicKeyOf(operator.keyid), operator.publicKey, 'callers cannot change stored keys');
  t.equal(trust.keys().length, 2);
});

t.test('envelopeDigest is the SHA-256 of the JCS envelope', async (t) => {
  const env = dsseSign(inToto, payload, proofSigner);
  t.equal(envelopeDigest(env), jcsDigestHex(env));
  t.not(envelopeDigest(env), envelopeDigest(dsseSign(inToto, payload, operator)));
  t.throws(() => envelopeDigest({ ...env, extra: 1 } as typeof env), ValidationError);
});
