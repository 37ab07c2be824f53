import { PAYLOAD_TYPES, toBase64 } from '@pentagate/protocol';
import { TrustStore, dsseSign, dsseVerify, fromGovernanceToken, toGovernanceToken } from '@pentagate/crypto';
import t from 'tap';
import { entryFor, signerFromByte } from './fixtures/keys.js';

const signer = signerFromByte(4);
const trust = TrustStore.fromDocument({ keys: [entryFor(signer, 'proof')] });
const payload = new TextEncoder().encode('{"_type":"https://in-toto.io/Statement/v1"}');
const envelope = dsseSign(PAYLOAD_TYPES.inToto, payload, signer);

t.test('a token is the same signature in compact form and converts back exactly', async (t) => {
  const token = toGovernanceToken(envelope);
  t.match(token, new RegExp(`^pgt1\\.${signer.keyid}\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{86}$`));
  t.same(fromGovernanceToken(token), envelope);
  t.equal(dsseVerify(fromGovernanceToken(token), trust, { role: 'proof' }).keyid, signer.keyid);
});

t.test('only single-signature in-toto envelopes have a token form', async (t) => {
  t.throws(
    () => toGovernanceToken(dsseSign(PAYLOAD_TYPES.consent, payload, signer)),
    /expected application\/vnd.in-toto\+json/,
  );
  t.throws(
    () => toGovernanceToken(dsseSign(PAYLOAD_TYPES.inToto, payload, [signer, signer])),
    /expected exactly 1/,
  );
});

t.test('parsing is strict and names what was wrong', async (t) => {
  const token = toGovernanceToken(envelope);
  const [, kid, body, sig] = token.split('.') as [string, string, string, string];
  const cases: [unknown, RegExp][] = [
    [42, /expected a string, got number/],
    [`${token}.x`, /expected 4 dot-separated parts/],
    [`pgt2.${kid}.${body}.${sig}`, /expected prefix "pgt1"/],
    [`pgt1.k!d.${body}.${sig}`, /kid: expected/],
    [`pgt1.${kid}.${body}=.${sig}`, /payload: expected base64url/],
    [`pgt1.${kid}..${sig}`, /payload: expected bytes, got none/],
    [`pgt1.${kid}.${body}.${sig.slice(0, 84)}`, /signature: expected 64 bytes, got 63/],
    ['p'.repeat(70_000), /at most 65536 characters/],
  ];
  for (const [input, message] of cases)
    t.throws(() => fromGovernanceToken(input), { code: 'INVALID_INPUT', message });
});

t.test('a tampered token does not verify', async (t) => {
  const [, kid, body, sig] = toGovernanceToken(envelope).split('.') as [string, string, string, string];
  const other = Buffer.from(body, 'base64url');
  other[3]! ^= 1;
  const tampered = fromGovernanceToken(`pgt1.${kid}.${other.toString('base64url')}.${sig}`);
  t.throws(() => dsseVerify(tampered, trust), { code: 'SIGNATURE_INVALID' });
  t.equal(tampered.payload, toBase64(other));
});
