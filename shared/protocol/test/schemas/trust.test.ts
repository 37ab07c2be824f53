import t from 'tap';
import { KEY_ROLES, TrustDocumentSchema, TrustedKeySchema, conforms } from '@pentagate/protocol';
import { trustDocument, trustedKey } from './fixtures.js';
import { drop, refusesEach, set } from './refusal.js';

refusesEach(t, 'trusted key', TrustedKeySchema, trustedKey, [
  ['missing kid', drop('/kid'), '/kid'],
  ['missing publicKey', drop('/publicKey'), '/publicKey'],
  ['algorithm other than Ed25519', set('/alg', 'ES256'), '/alg'],
  ['unknown role', set('/role', 'admin'), '/role'],
  ['public key of 31 bytes', set('/publicKey', 'A'.repeat(42)), '/publicKey'],
  ['public key in padded base64', set('/publicKey', `${'A'.repeat(42)}E=`), '/publicKey'],
  ['notBefore as Unix ms', set('/notBefore', 1_750_000_000_000), '/notBefore'],
  ['notAfter that is not a timestamp', set('/notAfter', 'next year'), '/notAfter'],
  ['notAfter with month 13', set('/notAfter', '2025-13-01T00:00:00Z'), '/notAfter'],
  ['note signer name with a plus', set('/name', 'log+1'), '/name'],
  ['note signer name with a space', set('/name', 'my log'), '/name'],
  ['extra member (a private key must never ride along)', set('/d', 'secret'), '/d'],
]);

refusesEach(t, 'trust document', TrustDocumentSchema, trustDocument, [
  ['missing keys', drop('/keys'), '/keys'],
  ['no keys at all', set('/keys', []), '/keys'],
  ['keys as an object', set('/keys', {}), '/keys'],
  ['a bad key among good ones', set('/keys/1/role', 'root'), '/keys/1/role'],
  ['extra member', set('/origin', 'x'), '/origin'],
]);

t.test('trusted key: every role of the contract is accepted', async (t) => {
  t.same([...KEY_ROLES], ['proof', 'checkpoint', 'operator', 'vendor', 'calibration', 'custody', 'edge']);
  for (const role of KEY_ROLES) t.ok(conforms(TrustedKeySchema, { ...trustedKey(), role }), role);
});
