import { createHmac, randomBytes } from 'node:crypto';
import {
  COMMAND_MAC_CONTEXT,
  computeCommandMac,
  ed25519KeyId,
  hmacKeyId,
  jcsDigestHex,
  sha256,
  sha256Hex,
  signMotorCommand,
  timingSafeEqual,
  verifyCommandMac,
} from '@pentagate/crypto';
import { InvalidInputError, canonicalize } from '@pentagate/protocol';
import t from 'tap';
import { unsignedCommand } from './fixtures/motor-command.js';

t.test('sha256 matches the FIPS 180-4 example digests', async (t) => {
  t.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  t.equal(sha256Hex(new Uint8Array()), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  t.equal(Buffer.from(sha256(Buffer.from('abc'))).toString('hex'), sha256Hex('abc'));
});

t.test('jcsDigestHex hashes the canonical form, so member order does not matter', async (t) => {
  t.equal(jcsDigestHex({ b: 1, a: [true, 'x'] }), jcsDigestHex({ a: [true, 'x'], b: 1 }));
  t.equal(jcsDigestHex({ b: 1, a: 2 }), sha256Hex('{"a":2,"b":1}'));
});

t.test('timingSafeEqual compares bytes and lengths', async (t) => {
  t.ok(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3])));
  t.notOk(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4])));
  t.notOk(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2])));
  t.ok(timingSafeEqual(new Uint8Array(), new Uint8Array()));
});

t.test('key ids are 16 hex chars, differ by kind, and refuse bad keys', async (t) => {
  const raw = new Uint8Array(32).fill(7);
  t.match(hmacKeyId(raw), /^[0-9a-f]{16}$/);
  t.match(ed25519KeyId(raw), /^[0-9a-f]{16}$/);
  t.not(hmacKeyId(raw), ed25519KeyId(raw), 'kind is part of the id');
  t.equal(hmacKeyId(raw), hmacKeyId(new Uint8Array(32).fill(7)), 'stable');
  t.throws(() => ed25519KeyId(new Uint8Array(31)), {
    message: 'Ed25519 public key: expected 32 bytes, got 31',
  });
  t.throws(() => hmacKeyId(new Uint8Array(8)), InvalidInputError);
  t.throws(() => hmacKeyId('secret' as unknown as Uint8Array), /expected a Uint8Array, got "secret"/);
});

t.test('the command MAC is HMAC-SHA256 over the context and the JCS of the command', async (t) => {
  const key = randomBytes(32);
  const unsigned = unsignedCommand();
  // Independent computation with OpenSSL's HMAC, so the noble path is checked against another implementation.
  const expected = createHmac('sha256', key)
    .update(COMMAND_MAC_CONTEXT + canonicalize(unsigned))
    .digest('base64url');
  t.equal(computeCommandMac(key, unsigned), expected);
  const signed = signMotorCommand(key, unsigned);
  t.equal(signed.mac, expected);
  t.ok(verifyCommandMac(key, signed));
  t.equal(computeCommandMac(key, signed), expected, 'an existing mac member is not covered');
  const resigned = signMotorCommand(key, { ...signed, seq: 8 });
  t.ok(verifyCommandMac(key, resigned), 'signing replaces an old mac');
});

t.test('verifyCommandMac refuses other keys, changed fields and malformed tags', async (t) => {
  const key = randomBytes(32);
  const signed = signMotorCommand(key, unsignedCommand());
  t.notOk(verifyCommandMac(randomBytes(32), signed), 'other key');
  t.notOk(verifyCommandMac(key, { ...signed, seq: signed.seq + 1 }), 'changed seq');
  t.notOk(verifyCommandMac(key, { ...signed, extra: 1 } as typeof signed), 'added member is covered');
  t.notOk(verifyCommandMac(key, { ...signed, mac: signed.mac.slice(0, 42) }), 'short tag');
  t.notOk(verifyCommandMac(key, { ...signed, mac: `${signed.mac}A` }), 'long tag');
  t.notOk(verifyCommandMac(key, { ...signed, mac: `${signed.mac.slice(0, 42)}+` }), 'alphabet');
});
