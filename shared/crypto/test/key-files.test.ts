import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  TrustStore,
  createEd25519Signer,
  ed25519KeyId,
  hmacKeyId,
  readEd25519KeyFile,
  readHmacKeyFile,
  trustEntryFor,
  writeEd25519KeyFile,
  writeHmacKeyFile,
} from '@pentagate/crypto';
import t from 'tap';
import { SMALL_ORDER_KEYS } from './fixtures/ed25519-points.js';

const dir = mkdtempSync(join(tmpdir(), 'pentagate-keys-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const mode = (path: string) => statSync(path).mode & 0o777;
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
};

t.test('Ed25519 key files round-trip in PEM and JWK with mode 0600', async (t) => {
  const seed = new Uint8Array(32).fill(21);
  const expected = createEd25519Signer(seed);
  for (const format of ['pem', 'jwk'] as const) {
    const path = join(dir, `ed.${format}`);
    const written = await writeEd25519KeyFile(path, seed, format);
    t.equal(written.kid, expected.keyid);
    t.equal(mode(path), 0o600, `${format}: mode 0600`);
    const text = readFileSync(path, 'utf8');
    if (format === 'pem') t.match(text, /^-----BEGIN PRIVATE KEY-----\n/);
    else t.match(JSON.parse(text), { kty: 'OKP', crv: 'Ed25519', kid: expected.keyid });
    const read = await readEd25519KeyFile(path);
    t.same(read.seed, seed);
    t.same(read.publicKey, expected.publicKey);
    t.equal(read.kid, expected.keyid);
  }
  const fresh = await writeEd25519KeyFile(join(dir, 'fresh.pem'));
  t.equal(fresh.kid, ed25519KeyId(fresh.publicKey), 'a random key when no seed is given');
});

t.test('HMAC key files are JWK oct with mode 0600', async (t) => {
  const key = new Uint8Array(32).fill(33);
  const path = join(dir, 'cmd.jwk');
  t.same(await writeHmacKeyFile(path, key), { kid: hmacKeyId(key) });
  t.equal(mode(path), 0o600);
  t.match(JSON.parse(readFileSync(path, 'utf8')), { kty: 'oct', alg: 'HS256', kid: hmacKeyId(key) });
  t.same(await readHmacKeyFile(path), { kid: hmacKeyId(key), key });
  const random = join(dir, 'random.jwk');
  const { kid } = await writeHmacKeyFile(random);
  t.equal((await readHmacKeyFile(random)).kid, kid);
  await t.rejects(writeHmacKeyFile(join(dir, 'short.jwk'), new Uint8Array(16)), /at least 32 bytes, got 16/);
});

t.test('refuses to overwrite an existing file and leaves it untouched', async (t) => {
  const path = join(dir, 'existing.pem');
  writeFileSync(path, 'precious');
  await t.rejects(writeEd25519KeyFile(path), {
    code: 'INVALID_INPUT',
    message: `${path}: already exists; refusing to overwrite a key file (move it away or choose another path)`,
  });
  await t.rejects(writeHmacKeyFile(path), /already exists/);
  t.equal(readFileSync(path, 'utf8'), 'precious');
  await t.rejects(writeEd25519KeyFile(join(dir, 'x.pem'), undefined, 'der' as 'pem'), /expected pem or jwk/);
  const nowhere = join(dir, 'no-such-dir', 'k.jwk');
  await t.rejects(writeHmacKeyFile(nowhere), {
    message: `${nowhere}: cannot create the key file: the directory ${join(dir, 'no-such-dir')} does not exist`,
  });
});

t.test('reading refuses wrong, foreign and inconsistent key files without echoing secrets', async (t) => {
  await t.rejects(readEd25519KeyFile(join(dir, 'missing.pem')), /cannot read the key file \(no such file\)/);
  await t.rejects(
    readEd25519KeyFile(
      write('garbage.pem', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n'),
    ),
    /does not parse/,
  );
  const { generateKeyPairSync } = await import('node:crypto');
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
    format: 'pem',
    type: 'pkcs8',
  }) as string;
  await t.rejects(readEd25519KeyFile(write('ec.pem', ec)), /expected an Ed25519 private key, got P-256/);
  await t.rejects(readEd25519KeyFile(write('rsa.jwk', '{"kty":"RSA"}')), /kty "OKP" and crv "Ed25519"/);
  const d = Buffer.alloc(32, 1).toString('base64url');
  const wrongX = Buffer.alloc(32, 2).toString('base64url');
  const err = await readEd25519KeyFile(
    write('mismatch.jwk', JSON.stringify({ kty: 'OKP', crv: 'Ed25519', d, x: wrongX })),
  ).catch((e: Error) => e);
  t.match(err, { message: /x does not match the public key of d/ });
  t.notMatch((err as Error).message, d, 'the secret is not in the message');
  await t.rejects(readHmacKeyFile(write('okp.jwk', JSON.stringify({ kty: 'OKP' }))), /kty "oct"/);
  await t.rejects(
    readHmacKeyFile(write('badkid.jwk', JSON.stringify({ kty: 'oct', k: d, kid: 'nope' }))),
    /does not match the key/,
  );
  await t.rejects(
    readHmacKeyFile(write('shortk.jwk', JSON.stringify({ kty: 'oct', k: 'AAAA' }))),
    /at least 32 bytes, got 3/,
  );
  await t.rejects(readEd25519KeyFile(write('huge.jwk', ' '.repeat(70_000))), /at most 65536 bytes/);
});

t.test(
  'a key file that is neither of the formats wanted is named for what it is, not called bad JSON',
  async (t) => {
    const empty = write('empty.pem', '');
    await t.rejects(readEd25519KeyFile(empty), {
      message: `${empty}: expected an Ed25519 private key (PEM PKCS#8 or a JWK with kty "OKP" and crv "Ed25519"), got an empty file`,
    });
    await t.rejects(
      readHmacKeyFile(empty),
      /expected an HMAC key \(a JWK with kty "oct"\), got an empty file$/,
    );
    const text = write('notes.txt', 'garbage\n');
    await t.rejects(
      readEd25519KeyFile(text),
      /expected an Ed25519 private key .*, got text that is neither PEM nor JSON$/,
    );
    const pem = write('ed.pem', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n');
    await t.rejects(readHmacKeyFile(pem), /expected an HMAC key \(a JWK with kty "oct"\), got a PEM file/);
    // a JWK that is broken JSON still says where the JSON breaks
    await t.rejects(readHmacKeyFile(write('broken.jwk', '{"kty":')), /expected JSON, got malformed text/);
  },
);

t.test('trustEntryFor makes an entry a TrustStore accepts, and refuses bad keys', async (t) => {
  const signer = createEd25519Signer(new Uint8Array(32).fill(40));
  const entry = trustEntryFor(signer.publicKey, 'checkpoint', {
    name: 'log.example',
    notAfter: '2030-01-01T00:00:00Z',
  });
  t.same(entry, {
    kid: signer.keyid,
    alg: 'Ed25519',
    role: 'checkpoint',
    publicKey: Buffer.from(signer.publicKey).toString('base64url'),
    notAfter: '2030-01-01T00:00:00Z',
    name: 'log.example',
  });
  t.equal(TrustStore.fromDocument({ keys: [entry] }).get(signer.keyid)?.name, 'log.example');
  t.throws(() => trustEntryFor(SMALL_ORDER_KEYS[3] as Uint8Array, 'proof'), /refused, a small-order point/);
  t.throws(() => trustEntryFor(signer.publicKey, 'proof', { notBefore: 'yesterday' }), /notBefore/);
});
