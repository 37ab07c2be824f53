import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TrustStore, readEd25519KeyFile } from '@pentagate/crypto';
import { commands } from '@pentagate/crypto/commands';
import { type CliIo, runCli } from '@pentagate/protocol';
import t from 'tap';

const dir = mkdtempSync(join(tmpdir(), 'pentagate-keys-cli-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (s) => out.push(s), err: (s) => err.push(s) };
  const code = await runCli(argv, commands, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

t.test(
  'keys generate --kind ed25519 writes a 0600 PEM and prints the public key, never the secret',
  async (t) => {
    const path = join(dir, 'k.pem');
    const r = await run('keys', 'generate', '--kind', 'ed25519', '--out', path);
    t.equal(r.code, 0, r.err);
    t.equal(statSync(path).mode & 0o777, 0o600);
    const key = await readEd25519KeyFile(path);
    t.match(r.out, `wrote Ed25519 key ${key.kid} to ${path}`);
    t.match(r.out, `public key: ${Buffer.from(key.publicKey).toString('base64url')}`);
    t.notMatch(r.out, Buffer.from(key.seed).toString('base64url'));
    t.notMatch(r.out, readFileSync(path, 'utf8').split('\n')[1] as string, 'no PEM body in the output');
  },
);

t.test('keys generate refuses to overwrite (exit 2) and leaves the file alone', async (t) => {
  const path = join(dir, 'taken.pem');
  writeFileSync(path, 'do not touch');
  const r = await run('keys', 'generate', '--kind', 'hmac', '--out', path);
  t.equal(r.code, 2);
  t.match(r.err, /already exists; refusing to overwrite/);
  t.equal(readFileSync(path, 'utf8'), 'do not touch');
});

t.test('keys generate --kind hmac and --format jwk', async (t) => {
  const hmac = join(dir, 'cmd.jwk');
  const r = await run('keys', 'generate', '--kind', 'hmac', '--out', hmac);
  t.equal(r.code, 0);
  t.match(r.out, /wrote HMAC command key [0-9a-f]{16} .*mode 0600/);
  t.equal(statSync(hmac).mode & 0o777, 0o600);
  const jwk = join(dir, 'ed.jwk');
  t.equal((await run('keys', 'generate', '--kind', 'ed25519', '--format', 'jwk', '--out', jwk)).code, 0);
  t.equal(JSON.parse(readFileSync(jwk, 'utf8')).kty, 'OKP');
  const pub = await run('keys', 'public', hmac, '--json');
  t.equal(pub.code, 0);
  t.match(JSON.parse(pub.out), { kind: 'hmac', kid: /^[0-9a-f]{16}$/ });
  t.notOk('k' in JSON.parse(pub.out), 'the HMAC secret is not printed');
  t.match((await run('keys', 'public', hmac)).out, /no public form/);
});

t.test('keys generate: bad usage exits 2 with the usage line', async (t) => {
  const missing = await run('keys', 'generate', '--kind', 'ed25519');
  t.equal(missing.code, 2);
  t.match(missing.err, /--out is required\nUsage: pentagate keys generate --kind ed25519\|hmac --out FILE/);
  const kind = await run('keys', 'generate', '--kind', 'rsa', '--out', join(dir, 'r'));
  t.equal(kind.code, 2);
  t.match(kind.err, /--kind: expected one of ed25519, hmac, got "rsa"/);
  const format = await run(
    'keys',
    'generate',
    '--kind',
    'ed25519',
    '--format',
    'der',
    '--out',
    join(dir, 'r'),
  );
  t.match(format.err, /--format: expected one of pem, jwk/);
});

t.test('keys public prints a trust entry that loads into a TrustStore', async (t) => {
  const path = join(dir, 'log.pem');
  await run('keys', 'generate', '--kind', 'ed25519', '--out', path);
  const r = await run('keys', 'public', path, '--role', 'checkpoint', '--name', 'log.example/a', '--json');
  t.equal(r.code, 0, r.err);
  const out = JSON.parse(r.out);
  t.match(out, {
    kind: 'ed25519',
    trustEntry: { role: 'checkpoint', name: 'log.example/a', alg: 'Ed25519' },
  });
  t.match(out.noteVerifierKey, /^log\.example\/a\+[0-9a-f]{8}\+/);
  const store = TrustStore.fromDocument({ keys: [out.trustEntry] });
  t.equal(store.get(out.kid)?.role, 'checkpoint');
  const text = await run('keys', 'public', path);
  t.match(text.out, /key id: +[0-9a-f]{16}\npublic key: [A-Za-z0-9_-]{43}\n\ntrust-file entry/);
  t.match(text.out, /"role": "proof"/, 'proof is the default role');
});

t.test('keys public: bad role, missing file and --help', async (t) => {
  const path = join(dir, 'any.pem');
  await run('keys', 'generate', '--kind', 'ed25519', '--out', path);
  const role = await run('keys', 'public', path, '--role', 'admin');
  t.equal(role.code, 2);
  t.match(role.err, /--role: expected one of proof, checkpoint/);
  const missing = await run('keys', 'public', join(dir, 'nope.pem'));
  t.equal(missing.code, 2);
  t.match(missing.err, /cannot read the key file \(no such file\)/);
  t.notMatch(missing.err, /at .*\.ts:/, 'no stack trace');
  const help = await run('keys', 'public', '--help');
  t.equal(help.code, 0);
  t.match(help.out, /trust-file entry/);
  const genHelp = await run('keys', 'generate', '--help');
  t.match(genHelp.out, /never overwritten/);
});
