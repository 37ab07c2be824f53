/**
 * The propose path's shortcuts give exactly what the shared functions they stand in for give: the
 * governance token of a freshly signed envelope, the RFC 6962 leaf hash of an audit entry's text, and
 * the SHA-256 of a JCS value on node:crypto.
 */
import {
  createEd25519Signer,
  dsseSign,
  dsseSignStatement,
  fromGovernanceToken,
  generateEd25519,
  jcsDigestHex,
  leafHash,
  toGovernanceToken,
} from '@pentagate/crypto';
import { PAYLOAD_TYPES, utf8Bytes } from '@pentagate/protocol';
import fc from 'fast-check';
import t from 'tap';
import { tokenOfFreshEnvelope } from '../../src/decisions/fresh-token.js';
import { jcsSha256Hex } from '../../src/pentagon/digest.js';
import { leafHashOfText } from '../../src/store/audit/audit-leaf.js';

const signer = createEd25519Signer(generateEd25519().privateKey);
const other = createEd25519Signer(generateEd25519().privateKey);

t.test('the token of a fresh envelope equals toGovernanceToken and parses back to the envelope', (t) => {
  fc.assert(
    fc.property(fc.jsonValue(), (statement) => {
      const envelope = dsseSignStatement(PAYLOAD_TYPES.inToto, { statement }, signer);
      const token = tokenOfFreshEnvelope(envelope, signer.keyid);
      if (token !== toGovernanceToken(envelope)) return false;
      const back = fromGovernanceToken(token);
      return back.payload === envelope.payload && back.signatures[0]!.sig === envelope.signatures[0]!.sig;
    }),
    { numRuns: 300 },
  );
  t.end();
});

t.test('an envelope that is not a plain fresh one goes through toGovernanceToken and its checks', (t) => {
  const two = dsseSign(PAYLOAD_TYPES.inToto, utf8Bytes('{}'), [signer, other]);
  t.throws(() => tokenOfFreshEnvelope(two, signer.keyid), /exactly 1/, 'two signatures are refused');
  const foreign = dsseSign(PAYLOAD_TYPES.inToto, utf8Bytes('{"a":1}'), other);
  t.equal(tokenOfFreshEnvelope(foreign, signer.keyid), toGovernanceToken(foreign), 'another key: same token');
  const custody = dsseSign('application/vnd.pentagate.custody+json', utf8Bytes('{}'), signer);
  t.throws(
    () => tokenOfFreshEnvelope(custody, signer.keyid),
    /payloadType/,
    'another payload type is refused',
  );
  t.end();
});

t.test('leafHashOfText is the RFC 6962 leaf hash of the UTF-8 bytes, lone surrogates included', (t) => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
      return Buffer.from(leafHashOfText(text)).equals(Buffer.from(leafHash(utf8Bytes(text))));
    }),
    { numRuns: 500 },
  );
  t.same(leafHashOfText('\ud800x'), leafHash(utf8Bytes('\ud800x')), 'a lone surrogate hashes as U+FFFD');
  t.end();
});

t.test('jcsSha256Hex equals jcsDigestHex on any JSON value', (t) => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => jcsSha256Hex(value) === jcsDigestHex(value)),
    { numRuns: 300 },
  );
  t.end();
});
