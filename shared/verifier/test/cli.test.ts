import { truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hmacKeyId } from '@pentagate/crypto';
import { toBase64 } from '@pentagate/protocol';
import t, { type Test } from 'tap';
import {
  ORIGIN,
  T0_MS,
  buildLog,
  checkpointNote,
  consentStatement,
  decisionStatement,
  governanceToken,
  hmacKey,
  intent,
  iso,
  proofPacket,
  signConsent,
  signDecision,
  signMotorCommand,
  strangerSigner,
  actionRequest,
  tempDir,
  trustDocument,
  unsignedCommand,
  writeKit,
} from './fixtures/artifacts.js';
import { pentagate } from './fixtures/cli.js';

const log = buildLog(5);
const AT = iso(T0_MS + 10_000);

async function setup(t: Test) {
  const dir = await tempDir(t);
  const file = async (name: string, body: unknown) => {
    const path = join(dir, name);
    await writeFile(
      path,
      typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
    );
    return path;
  };
  return { dir, file, trust: await file('trust.json', trustDocument()) };
}

const noStack = (t: Test, text: string) => t.notMatch(text, /\n\s+at .*\(.*:\d+:\d+\)/, 'no stack trace');

t.test('verify --help lists every subcommand with one line each', async (t) => {
  const { code, out } = await pentagate('verify', '--help');
  t.equal(code, 0);
  for (const sub of [
    'proof',
    'token',
    'checkpoint',
    'inclusion',
    'consistency',
    'kit',
    'command',
    'consent',
  ]) {
    t.match(out, new RegExp(`\\n  verify ${sub} +\\S`), sub);
  }
});

t.test("each subcommand's --help explains what is checked and the exit codes", async (t) => {
  for (const sub of [
    'proof',
    'token',
    'checkpoint',
    'inclusion',
    'consistency',
    'kit',
    'command',
    'consent',
  ]) {
    const { code, out } = await pentagate('verify', sub, '--help');
    t.equal(code, 0, sub);
    t.match(out, /Checks|checked/, sub);
    t.match(out, /Exit codes: 0 valid; 1 invalid/, sub);
    t.match(out, /--json/, sub);
  }
});

t.test('proof: VALID exits 0 and prints each check; the time source is stated', async (t) => {
  const { file, trust } = await setup(t);
  const packet = await file('p.json', proofPacket(log, 2));
  const given = await pentagate('verify', 'proof', packet, '--trust', trust, '--at', AT);
  t.equal(given.code, 0, given.err);
  t.match(given.out, /^decision dec_0002 \(ALLOW\)\n {2}✓ envelope signature: /);
  t.match(given.out, `Times checked at ${AT} (from --at).`);
  t.match(given.out, /\nVALID signature — decision: ALLOW \(an approval\) \(12 checks passed\)$/);

  const clock = await pentagate('verify', 'proof', packet, '--trust', trust);
  t.equal(clock.code, 1, 'the fixture decision expired long ago by the real clock');
  t.match(clock.out, /\(the current clock\)/);
  t.match(clock.out, /✗ expiry: expired at/);
  t.match(clock.out, /\nINVALID \(1 of 12 checks failed\)$/);
});

t.test(
  'proof of a DENY: a valid refusal, said so; --require-approval exits 3 for it, 0 for an approval',
  async (t) => {
    const { file, trust } = await setup(t);
    const deny = await file('deny.json', {
      v: 1,
      envelope: signDecision(decisionStatement(4, { outcome: 'DENY' })),
    });
    const plain = await pentagate('verify', 'proof', deny, '--trust', trust, '--at', AT);
    t.equal(plain.code, 0, 'without the flag a valid packet exits 0, as before');
    t.match(plain.out, /\nVALID signature — decision: DENY \(not an approval\) \(\d+ checks passed\)$/);
    t.notMatch(plain.out, /\nVALID \(/, 'never the bare VALID of an approval-less report');
    const json = JSON.parse(
      (await pentagate('verify', 'proof', deny, '--trust', trust, '--at', AT, '--json')).out,
    );
    t.same(json.decision, { outcome: 'DENY', approval: false });

    const required = await pentagate(
      'verify',
      'proof',
      deny,
      '--trust',
      trust,
      '--at',
      AT,
      '--require-approval',
    );
    t.equal(required.code, 3, 'a valid denial is no approval');
    const allow = await file('allow.json', proofPacket(log, 2));
    const approved = await pentagate(
      'verify',
      'proof',
      allow,
      '--trust',
      trust,
      '--at',
      AT,
      '--require-approval',
    );
    t.equal(approved.code, 0, 'a valid approval');
    const help = await pentagate('verify', 'proof', '--help');
    t.match(help.out, /--require-approval/);
    t.match(help.out, /With --require-approval: 3 valid, but the decision is not an approval/);
  },
);

t.test('--json prints { valid, subject, decision, at, atSource, checks, failures }', async (t) => {
  const { file, trust } = await setup(t);
  const packet = await file('p.json', proofPacket(log, 2));
  const ok = await pentagate('verify', 'proof', packet, '--trust', trust, '--at', AT, '--json');
  t.equal(ok.code, 0);
  const report = JSON.parse(ok.out);
  t.same(Object.keys(report), ['valid', 'subject', 'decision', 'at', 'atSource', 'checks', 'failures']);
  t.same(report.decision, { outcome: 'ALLOW', approval: true });
  t.equal(report.valid, true);
  t.equal(report.at, AT);
  t.equal(report.atSource, 'option');
  t.same(report.failures, []);
  t.ok(report.checks.every((c: Record<string, unknown>) => Object.keys(c).join() === 'name,ok,detail'));

  const bad = await pentagate(
    'verify',
    'proof',
    packet,
    '--trust',
    trust,
    '--at',
    iso(T0_MS + 90_000),
    '--json',
  );
  t.equal(bad.code, 1);
  const failed = JSON.parse(bad.out);
  t.equal(failed.valid, false);
  t.match(failed.failures, [/^expiry: expired at/]);
});

t.test('verify token --request: valid for the call it was issued for, invalid for another', async (t) => {
  // without --request a token for one call verified as VALID for any other call an executor was about to run
  const { file, trust } = await setup(t);
  const token = await file('tok', governanceToken(log, 2));
  const same = await file('req.json', actionRequest);
  const other = await file('other.json', { ...actionRequest, payload: { amountCents: 999_999 } });
  const ok = await pentagate('verify', 'token', token, '--trust', trust, '--at', AT, '--request', same);
  t.equal(ok.code, 0, ok.out);
  t.match(ok.out, /✓ binds the request: the token is for this request/);
  const bad = await pentagate('verify', 'token', token, '--trust', trust, '--at', AT, '--request', other);
  t.equal(bad.code, 1);
  t.match(bad.out, /✗ binds the request: .*issued for another call/);
});

t.test('verify proof --request: valid for the call decided, invalid when shown for another', async (t) => {
  // without --request the proof packet of one decision verified as VALID when shown for any other call
  const { file, trust } = await setup(t);
  const packet = await file('proof.json', proofPacket(log, 2));
  const same = await file('req.json', actionRequest);
  const other = await file('other.json', { ...actionRequest, payload: { amountCents: 999_999 } });
  const ok = await pentagate('verify', 'proof', packet, '--trust', trust, '--at', AT, '--request', same);
  t.equal(ok.code, 0, ok.out);
  t.match(ok.out, /✓ binds the request: the proof is for this request/);
  const bad = await pentagate('verify', 'proof', packet, '--trust', trust, '--at', AT, '--request', other);
  t.equal(bad.code, 1);
  t.match(bad.out, /✗ binds the request: .*the proof was issued for another call/);
});

t.test('verify token|proof --tenant: valid for the tenant decided for, invalid for another', async (t) => {
  // one cloud signs every tenant's decisions with one key: without --tenant another tenant's decision verified
  const { file, trust } = await setup(t);
  const token = await file('tok', governanceToken(log, 2));
  const packet = await file('proof.json', proofPacket(log, 2));
  for (const [what, artifact] of [
    ['token', token],
    ['proof', packet],
  ] as const) {
    const forTenant = (tenant: string) =>
      pentagate('verify', what, artifact, '--trust', trust, '--at', AT, '--tenant', tenant);
    const ok = await forTenant('tenant-a');
    t.equal(ok.code, 0, ok.out);
    t.match(ok.out, /✓ tenant: a decision of tenant tenant-a/);
    const bad = await forTenant('tenant-b');
    t.equal(bad.code, 1, `${what}: another tenant's`);
    t.match(bad.out, /✗ tenant: expected a decision of tenant tenant-b, got one of tenant tenant-a/);
  }
});

t.test('verify token takes the token itself as well as a file holding it', async (t) => {
  const { file, trust } = await setup(t);
  const text = governanceToken(log, 2);
  const same = await file('req-inline.json', actionRequest);
  const inline = await pentagate('verify', 'token', text, '--trust', trust, '--at', AT, '--request', same);
  t.equal(inline.code, 0, inline.out);
  t.match(inline.out, /✓ binds the request/);
  const fromFile = await pentagate(
    'verify',
    'token',
    await file('tok-inline', text),
    '--trust',
    trust,
    '--at',
    AT,
  );
  t.equal(fromFile.code, 0, 'a file still works');
  const tampered = `${text.slice(0, -4)}AAAA`;
  const bad = await pentagate('verify', 'token', tampered, '--trust', trust, '--at', AT);
  t.equal(bad.code, 1, 'a changed signature is still refused');
});

t.test('an unknown key id exits 2 (cannot be checked) and names the kid', async (t) => {
  const { file } = await setup(t);
  const onlyStranger = await file('t2.json', { keys: [trustDocument().keys[1]] });
  const token = await file('tok', governanceToken(log, 0));
  const r = await pentagate('verify', 'token', token, '--trust', onlyStranger, '--at', AT);
  t.equal(r.code, 2);
  t.match(r.out, `✗ envelope signature: unknown key id "${log.envelopes.get(0)!.signatures[0]!.keyid}"`);
  t.notOk(r.out.includes(strangerSigner.keyid));
});

t.test('bad usage exits 2 with the usage line', async (t) => {
  const { file, trust } = await setup(t);
  const packet = await file('p.json', proofPacket(log, 2));
  const cases: [string[], RegExp][] = [
    [['verify', 'proof', packet], /--trust is required/],
    [['verify', 'proof', '--trust', trust], /expected 1 argument/],
    [['verify', 'proof', packet, packet, '--trust', trust], /expected 1 argument/],
    [
      ['verify', 'proof', packet, '--trust', trust, '--at', 'yesterday'],
      /--at: expected an RFC 3339 timestamp/,
    ],
    [
      ['verify', 'proof', packet, '--trust', trust, '--at', '2025-02-31T00:00:00Z'],
      /--at: expected an RFC 3339/,
    ],
    [['verify', 'proof', packet, '--trust', trust, '--bogus'], /unknown option '--bogus'/],
    [['verify', 'command', packet], /--hmac-key is required/],
    [['verify', 'nothing'], /is not a command/],
  ];
  for (const [argv, message] of cases) {
    const r = await pentagate(...argv);
    t.equal(r.code, 2, argv.join(' '));
    t.match(r.err, message, argv.join(' '));
    noStack(t, r.err);
  }
});

t.test('unreadable input exits 2 with a message naming what was expected and what came', async (t) => {
  const { dir, file, trust } = await setup(t);
  const packet = proofPacket(log, 2);
  const big = join(dir, 'big.json');
  await writeFile(big, '');
  await truncate(big, 16 * 1024 * 1024 + 1);
  const cases: [string, string, RegExp][] = [
    ['proof', join(dir, 'missing.json'), /proof packet .*missing\.json: cannot read it \(no such file\)/],
    ['proof', dir, /expected a regular file/],
    ['proof', await file('m.json', '{"v":1,'), /proof packet .*: expected JSON, got malformed text/],
    ['proof', await file('w.json', { ...packet, v: '1' }), /proof packet: \/v: expected 1, got "1"/],
    ['proof', big, /expected at most 16777216 bytes, got 16777217/],
    [
      'proof',
      await file('b.json', { ...packet, inclusion: { ...packet.inclusion, hashes: ['AA=='] } }),
      /hashes\/0/,
    ],
    ['token', await file('t.txt', 'pgt1.zz'), /expected 4 dot-separated parts/],
    ['token', await file('t.json', '{"governance_token": 5}'), /"governance_token" string, got 5/],
    [
      'token',
      await file('tp.json', packet),
      /got an object without one \(members: v, envelope.*; a proof packet is checked with `pentagate verify proof`/,
    ],
    ['checkpoint', await file('c.note', 'just one line'), /checkpoint/],
    ['inclusion', await file('i.json', { leafIndex: 0 }), /inclusion file/],
    ['consistency', await file('k.json', []), /consistency file/],
    ['consent', await file('e.json', { payload: 1 }), /consent token/],
    ['proof', await file('u.json', Buffer.from([0xff, 0xfe, 0x7b])), /not valid UTF-8/],
  ];
  for (const [sub, path, message] of cases) {
    const r = await pentagate('verify', sub, path, '--trust', trust, '--at', AT);
    t.equal(r.code, 2, `${sub} ${path}: ${r.out}`);
    t.match(r.err, message, `${sub} ${path}`);
    t.equal(r.out, '', 'nothing on stdout');
    noStack(t, r.err);
  }
  const badTrust = await file('bad-trust.json', {
    keys: [{ ...trustDocument().keys[0], kid: '0'.repeat(16) }],
  });
  const r = await pentagate('verify', 'proof', await file('p.json', packet), '--trust', badTrust);
  t.equal(r.code, 2);
  t.match(r.err, /trust file .*kid: expected [0-9a-f]{16} \(the key id of its publicKey\)/);
  // a signing key where the trust file belongs: say what it is and how to make a trust file
  const pem = await file(
    'proof-key.pem',
    '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n-----END PRIVATE KEY-----\n',
  );
  const k = await pentagate('verify', 'proof', await file('p.json', packet), '--trust', pem);
  t.equal(k.code, 2);
  t.match(k.err, /trust file .*proof-key\.pem: this is a PEM key, not a trust file; .*keys public/);
  noStack(t, k.err);
});

t.test('checkpoint, inclusion and consistency files through the CLI', async (t) => {
  const { file, trust } = await setup(t);
  const note = await file('cp.note', checkpointNote(log));
  const checked = await pentagate('verify', 'checkpoint', note, '--trust', trust, '--at', AT);
  t.equal(checked.code, 0);
  t.match(checked.out, /\nVALID \(1 check passed\)$/, 'one check, in the singular');
  const hashes = log.tree.inclusionProof(1).map((h) => toBase64(h));
  const inclusion = {
    entry: log.entries[1],
    leafIndex: 1,
    treeSize: 5,
    hashes,
    checkpoint: checkpointNote(log),
  };
  t.equal(
    (await pentagate('verify', 'inclusion', await file('i.json', inclusion), '--trust', trust)).code,
    0,
  );
  const wrong = await file('i2.json', { ...inclusion, leafIndex: 2 });
  t.equal((await pentagate('verify', 'inclusion', wrong, '--trust', trust)).code, 1);
  const consistency = {
    oldSize: 2,
    newSize: 5,
    hashes: log.tree.consistencyProof(2).map((h) => toBase64(h)),
    oldCheckpoint: checkpointNote(log, 2),
    newCheckpoint: checkpointNote(log),
  };
  const c = await pentagate(
    'verify',
    'consistency',
    await file('c.json', consistency),
    '--trust',
    trust,
    '--json',
  );
  t.equal(c.code, 0);
  t.equal(JSON.parse(c.out).subject, `consistency of ${ORIGIN} from size 2 to 5`);
  t.equal(JSON.parse(c.out).atSource, 'clock', 'the clock it read is stated');
});

t.test('kit through the CLI: valid, without a trust anchor, self-asserted, tampered', async (t) => {
  const { dir, trust } = await setup(t);
  const kit = await writeKit(dir, log);
  const ok = await pentagate('verify', 'kit', kit, '--trust', trust, '--at', AT);
  t.equal(ok.code, 0, 'valid');
  const noAnchor = await pentagate('verify', 'kit', kit, '--at', AT);
  t.equal(noAnchor.code, 1, 'no trust anchor: not valid');
  t.match(noAnchor.out, /✗ trust anchor: expected --trust/);
  t.match(noAnchor.out, /INVALID \(1 of \d+ checks failed\)/);
  t.match(noAnchor.err, /no --trust given/);
  const selfTrust = await pentagate('verify', 'kit', kit, '--self-asserted-trust', '--at', AT);
  t.equal(selfTrust.code, 0, 'self-consistency asked for');
  t.match(selfTrust.out, /✓ trust anchor: the kit's own trust.json .* self-asserted/);
  await writeFile(join(kit, 'checkpoint.note'), checkpointNote(log, 4));
  const bad = await pentagate('verify', 'kit', kit, '--trust', trust, '--at', AT);
  t.equal(bad.code, 1);
  t.match(bad.out, /✗ digest of checkpoint\.note: expected sha256/);
  const notKit = await pentagate('verify', 'kit', join(dir, 'nope'), '--trust', trust);
  t.equal(notKit.code, 2);
  const notKitSelfTrust = await pentagate('verify', 'kit', join(dir, 'nope'));
  t.equal(notKitSelfTrust.code, 2);
  t.match(
    notKitSelfTrust.err,
    /^pentagate verify kit: audit kit \S+nope: expected a directory, got nothing\s*$/,
    'one line: the error alone, no note about --trust',
  );
});

t.test('command through the CLI: key file, --state, --at, and the unused --trust', async (t) => {
  const { dir, file, trust } = await setup(t);
  const keyPath = join(dir, 'cmd.jwk');
  const { writeHmacKeyFile } = await import('@pentagate/crypto');
  await writeHmacKeyFile(keyPath, hmacKey);
  const cmd = await file('cmd.json', signMotorCommand(hmacKey, unsignedCommand()));
  const plain = await pentagate('verify', 'command', cmd, '--hmac-key', keyPath);
  t.equal(plain.code, 0, plain.err);
  t.match(plain.out, /No time-dependent checks were evaluated against a clock/);
  t.match(plain.out, `key id ${hmacKeyId(hmacKey)}`);
  const state = await file('state.json', { robotId: 'arm-7', epoch: 3, lastSeq: 7 });
  const replay = await pentagate(
    'verify',
    'command',
    cmd,
    '--hmac-key',
    keyPath,
    '--state',
    state,
    '--at',
    iso(T0_MS),
  );
  t.equal(replay.code, 1);
  t.match(replay.out, /replayed-seq/);
  const late = await pentagate('verify', 'command', cmd, '--hmac-key', keyPath, '--state', state);
  t.match(late.out, /\(the current clock\)/, 'a state without --at reads the clock and says so');
  const withTrust = await pentagate('verify', 'command', cmd, '--hmac-key', keyPath, '--trust', trust);
  t.equal(withTrust.code, 0);
  t.match(withTrust.err, /--trust is not used/);
  const badState = await file('s2.json', { robotId: 'arm-7', epoch: -1, lastSeq: 0 });
  const r = await pentagate('verify', 'command', cmd, '--hmac-key', keyPath, '--state', badState);
  t.equal(r.code, 2);
  t.match(r.err, /controller state .*\/epoch/);
  const noKey = await pentagate('verify', 'command', cmd, '--hmac-key', join(dir, 'missing.jwk'));
  t.equal(noKey.code, 2);
});

t.test('command through the CLI: a duplicate member name is refused, not read last-wins', async (t) => {
  const { dir, file } = await setup(t);
  const keyPath = join(dir, 'cmd.jwk');
  const { writeHmacKeyFile } = await import('@pentagate/crypto');
  await writeHmacKeyFile(keyPath, hmacKey);
  const signed = JSON.stringify(signMotorCommand(hmacKey, unsignedCommand()));
  const cmd = await file('dup.json', signed.replace('{', '{"seq":99,'));
  const r = await pentagate('verify', 'command', cmd, '--hmac-key', keyPath);
  t.equal(r.code, 2, 'refused as bad input');
  t.match(r.err, /"seq" again/);
  noStack(t, r.err);
});

t.test('consent through the CLI with --intent and --robot', async (t) => {
  const { file, trust } = await setup(t);
  const token = await file('consent.json', signConsent(consentStatement()));
  const intentPath = await file('intent.json', intent);
  const at = iso(T0_MS + 1_000);
  const ok = await pentagate(
    'verify',
    'consent',
    token,
    '--trust',
    trust,
    '--intent',
    intentPath,
    '--robot',
    'arm-7',
    '--at',
    at,
  );
  t.equal(ok.code, 0, 'valid');
  const other = await pentagate('verify', 'consent', token, '--trust', trust, '--robot', 'arm-9', '--at', at);
  t.equal(other.code, 1);
  t.match(other.out, /✗ robot: expected consent for robot "arm-9", got "arm-7"/);
});
