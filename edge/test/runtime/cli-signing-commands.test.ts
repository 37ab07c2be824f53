import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import {
  dsseVerifyStatement,
  readHmacKeyFile,
  TrustStore,
  trustEntryFor,
  verifyFrameMac,
  writeEd25519KeyFile,
  writeHmacKeyFile,
} from '@pentagate/crypto';
import {
  CalibrationCertificateSchema,
  FirmwareManifestSchema,
  type KeyRole,
  readJson,
  type TelemetryFrame,
} from '@pentagate/protocol';
import { verifyPassword } from '../../src/broker/password-hash.js';
import { commands } from '../../src/commands.js';
import { cli } from './helpers/run-edge-cli.js';
import { armFixture } from './helpers/arm-fixture.js';

async function setup(t: { teardown(fn: () => unknown): void }) {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-cli-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const key = async (name: string, role: KeyRole) => {
    const path = join(dir, `${name}.pem`);
    const { publicKey } = await writeEd25519KeyFile(path);
    return { path, entry: trustEntryFor(publicKey, role) };
  };
  return { dir, key };
}

t.test('firmware sign writes a manifest the vendor trust verifies', async (t) => {
  const { dir, key } = await setup(t);
  const vendor = await key('vendor', 'vendor');
  const image = join(dir, 'fw.bin');
  await writeFile(image, 'firmware image bytes');
  const out = join(dir, 'fw.manifest.json');
  const args = [
    '--key',
    vendor.path,
    '--vendor',
    'UR',
    '--model',
    'UR5e',
    '--version',
    '5.15.0',
    '--out',
    out,
  ];
  const r = await cli(['firmware', 'sign', '--image', image, '--robot-id', 'r1', ...args]);
  t.equal(r.code, 0, r.err);
  const envelope = readJson(await readFile(out), { what: 'manifest' });
  const { statement } = dsseVerifyStatement(
    envelope,
    TrustStore.fromDocument({ keys: [vendor.entry] }),
    FirmwareManifestSchema,
    {
      role: 'vendor',
    },
  );
  t.equal(statement.imageSha256, createHash('sha256').update('firmware image bytes').digest('hex'));
  t.same(statement.robotIds, ['r1']);
  t.equal(statement.firmwareVersion, '5.15.0');

  const again = await cli(['firmware', 'sign', '--sha256', 'ab'.repeat(32), ...args]);
  t.equal(again.code, 2, 'an existing manifest is never overwritten');
  t.match(again.err, /exists; refusing to overwrite/);
  const both = await cli(['firmware', 'sign', '--sha256', 'ab'.repeat(32), '--image', image, ...args]);
  t.match(both, { code: 2, err: /expected exactly one of --image or --sha256/ });
  const badHex = await cli([
    'firmware',
    'sign',
    '--sha256',
    'XYZ',
    ...args.slice(0, -1),
    join(dir, 'x.json'),
  ]);
  t.match(badHex, { code: 2, err: /--sha256: expected 64 lower-case hex characters/ });
});

t.test('calib sign writes a certificate the lab trust verifies', async (t) => {
  const { dir, key } = await setup(t);
  const lab = await key('lab', 'calibration');
  const out = join(dir, 'cal.json');
  const base = [
    'calib',
    'sign',
    '--key',
    lab.path,
    '--lab',
    'Metrology',
    '--robot',
    'r1',
    '--sensor',
    'lidar-front',
  ];
  const r = await cli([
    ...base,
    '--calibration-id',
    'CAL-1',
    '--issued',
    '2027-01-01T00:00:00Z',
    '--expires',
    '2028-01-01T00:00:00Z',
    '--out',
    out,
  ]);
  t.equal(r.code, 0, r.err);
  const { statement } = dsseVerifyStatement(
    readJson(await readFile(out), { what: 'cert' }),
    TrustStore.fromDocument({ keys: [lab.entry] }),
    CalibrationCertificateSchema,
    { role: 'calibration' },
  );
  t.same(
    { sensorId: statement.sensorId, issuedAt: statement.issuedAt, expiresAt: statement.expiresAt },
    {
      sensorId: 'lidar-front',
      issuedAt: Date.parse('2027-01-01T00:00:00Z'),
      expiresAt: Date.parse('2028-01-01T00:00:00Z'),
    },
  );
  const backwards = await cli([
    ...base,
    '--calibration-id',
    'C',
    '--issued',
    '2028-01-01T00:00:00Z',
    '--expires',
    '2027-01-01T00:00:00Z',
    '--out',
    join(dir, 'b.json'),
  ]);
  t.match(backwards, { code: 2, err: /--expires: expected a time after 2028-01-01/ });
  const badIso = await cli([
    ...base,
    '--calibration-id',
    'C',
    '--expires',
    'next year',
    '--out',
    join(dir, 'c.json'),
  ]);
  t.match(badIso, { code: 2, err: /--expires: expected an RFC 3339 timestamp/ });
  // A day past the end of its month is refused, not rolled over into the next (Date.parse would give 3 March).
  for (const [text, why] of [
    ['2027-02-31T00:00:00Z', 'the 31st of February'],
    ['2027-01-31T00:00Z', 'a time without seconds (RFC 3339 requires them)'],
  ] as const) {
    const refused = await cli([
      ...base,
      '--calibration-id',
      'C',
      '--expires',
      text,
      '--out',
      join(dir, 'e.json'),
    ]);
    t.match(refused, { code: 2, err: /--expires: expected an RFC 3339 timestamp/ }, why);
  }
  const missing = await cli([...base, '--expires', '2028-01-01T00:00:00Z', '--out', join(dir, 'd.json')]);
  t.match(missing, { code: 2, err: /--calibration-id is required/ });
});

t.test('consent grant prints a token that releases the waiting intent, once', async (t) => {
  const { dir } = await setup(t);
  const fixture = armFixture();
  const operatorKey = join(dir, 'operator.pem');
  await writeEd25519KeyFile(operatorKey, fixture.operatorSeed);
  const gate = fixture.makeGate();
  const now = Date.now();
  for (const frame of fixture.passingFrames(1, now)) gate.ingestTelemetry(frame, now);
  const heavy = fixture.smallMove('heavy-1');
  for (const p of heavy.kind === 'joint-trajectory' ? heavy.points : [])
    p.effortsNm = [1, 120, 12, 2, 1, 0.5];
  const waiting = gate.trapAndSign(heavy, now);
  t.equal(waiting.kind, 'awaiting-consent', waiting.verdict.violations.join('; '));
  const intentFile = join(dir, 'intent.json');
  await writeFile(intentFile, JSON.stringify(heavy, null, 2));

  const grant = (...extra: string[]) =>
    cli(['consent', 'grant', '--key', operatorKey, '--intent', intentFile, '--operator', 'alice', ...extra]);
  const r = await grant('--ttl', '60s');
  t.equal(r.code, 0, r.err);
  t.match(r.err, /consent for intent heavy-1 on r1 by alice \(high-torque\)/);
  const token = readJson(r.out.trim(), { what: 'token' });
  const released = gate.submitConsent(token, Date.now());
  t.equal(released.kind, 'signed', released.verdict.violations.join('; '));
  t.equal(gate.submitConsent(token, Date.now()).kind, 'veto', 'the same token does not work twice');

  // --deny: the same statement saying decision "deny" ends the wait of the move asked for again
  const parkedAgain = gate.trapAndSign({ ...heavy, intentId: 'heavy-2' }, Date.now());
  t.equal(parkedAgain.kind, 'awaiting-consent', parkedAgain.verdict.violations.join('; '));
  await writeFile(intentFile, JSON.stringify({ ...heavy, intentId: 'heavy-2' }));
  const denial = await grant('--deny');
  t.equal(denial.code, 0, denial.err);
  t.match(denial.err, /denial for intent heavy-2 on r1 by alice/);
  const denied = gate.submitConsent(readJson(denial.out.trim(), { what: 'token' }), Date.now());
  t.equal(denied.kind, 'veto');
  t.match(denied.verdict.violations[0], /^CONSENT\.DENIED: operator alice denied the move/);
  t.same(gate.waitingConsents(), [], 'the move no longer waits');

  const badTtl = await cli([
    'consent',
    'grant',
    '--key',
    operatorKey,
    '--intent',
    intentFile,
    '--operator',
    'a',
    '--ttl',
    '1 minute',
  ]);
  t.match(badTtl, { code: 2, err: /--ttl: expected a duration such as 500ms/ });
  const badScope = await cli([
    'consent',
    'grant',
    '--key',
    operatorKey,
    '--intent',
    intentFile,
    '--operator',
    'a',
    '--scope',
    'any',
  ]);
  t.match(badScope, { code: 2, err: /--scope: expected one of high-torque, safety-critical/ });
  await writeFile(join(dir, 'bad-intent.json'), '{"v":1}');
  const badIntent = await cli([
    'consent',
    'grant',
    '--key',
    operatorKey,
    '--intent',
    join(dir, 'bad-intent.json'),
    '--operator',
    'a',
  ]);
  t.equal(badIntent.code, 2, 'an invalid intent is refused');
  const noFile = await cli([
    'consent',
    'grant',
    '--key',
    operatorKey,
    '--intent',
    join(dir, 'nope.json'),
    '--operator',
    'a',
  ]);
  t.match(noFile, { code: 2, err: /--intent: cannot read \S+: no such file or directory \(ENOENT\)/ });
});

t.test('edge sensor-sign prints a frame the authenticated source accepts', async (t) => {
  const { dir } = await setup(t);
  const keyPath = join(dir, 'lidar.key.jwk');
  const { kid } = await writeHmacKeyFile(keyPath);
  const { key } = await readHmacKeyFile(keyPath);
  const fixture = armFixture({ proximityKey: key });
  const framePath = join(dir, 'proximity.json');
  await writeFile(framePath, JSON.stringify(fixture.proximityFrame(1, 0, 0.5)));
  const before = Date.now();
  const r = await cli([
    'edge',
    'sensor-sign',
    '--key',
    keyPath,
    '--frame',
    framePath,
    '--seq',
    '7',
    '--stamp-now',
  ]);
  t.equal(r.code, 0, r.err);
  const signed = readJson(r.out, { what: 'signed frame' }) as TelemetryFrame;
  t.equal(signed.seq, 7);
  t.ok(signed.stampMs >= before, '--stamp-now sets the source stamp');
  t.equal(signed.mac?.keyId, kid);
  t.ok(verifyFrameMac(key, signed), 'the MAC is over the edited frame');
  const gate = fixture.makeGate();
  t.same(gate.ingestTelemetry(signed), { accepted: true }, 'the edge accepts it');
  t.notOk(
    gate.ingestTelemetry({ ...signed, seq: 8, nearestHumanM: null }).accepted,
    'an edited copy is refused',
  );
  const bad = await cli(['edge', 'sensor-sign', '--key', keyPath, '--frame', framePath, '--seq', '1.5']);
  t.equal(bad.code, 2);
  t.match(bad.err, /--seq: expected a whole number, got "1.5"/);
  await writeFile(framePath, JSON.stringify({ ...fixture.proximityFrame(1, 0, 0.5), nearestHumanM: 'far' }));
  const invalid = await cli(['edge', 'sensor-sign', '--key', keyPath, '--frame', framePath]);
  t.equal(invalid.code, 2);
  t.match(invalid.err, /telemetry frame/);
});

t.test('edge hash-password prints a hash of the file’s password', async (t) => {
  const { dir } = await setup(t);
  const file = join(dir, 'pw');
  await writeFile(file, 'robot-password\n', { mode: 0o600 });
  const r = await cli(['edge', 'hash-password', '--password-file', file]);
  t.equal(r.code, 0);
  t.ok(await verifyPassword('robot-password', r.out.trim()));
  t.notMatch(r.out, /robot-password/);
  await writeFile(file, '');
  t.match(await cli(['edge', 'hash-password', '--password-file', file]), {
    code: 2,
    err: /expected one non-empty line/,
  });
});

t.test('every command has help text', async (t) => {
  for (const c of commands) {
    const r = await cli([...c.path, '--help']);
    t.equal(r.code, 0, c.path.join(' '));
    t.ok(c.description && c.description.length > 80, `${c.path.join(' ')} explains itself`);
  }
});

t.test('signing commands refuse a private key, and secrets, that group or others may read', async (t) => {
  const { dir, key } = await setup(t);
  const vendor = await key('vendor', 'vendor');
  const { chmod } = await import('node:fs/promises');
  await chmod(vendor.path, 0o644); // a copy made with `cp` under the usual umask
  const firmware = await cli([
    ...['firmware', 'sign', '--sha256', 'ab'.repeat(32), '--robot-id', 'r1', '--key', vendor.path],
    ...['--vendor', 'UR', '--model', 'UR5e', '--version', '1.0.0', '--out', join(dir, 'fw.json')],
  ]);
  t.equal(firmware.code, 2, 'nothing is signed');
  t.match(firmware.err, /the vendor's signing key is readable by group or others \(mode 0644\).*chmod 600/);
  const intentFile = join(dir, 'intent.json');
  await writeFile(intentFile, JSON.stringify(armFixture().smallMove('m-1')));
  const consent = await cli([
    'consent',
    'grant',
    '--key',
    vendor.path,
    '--intent',
    intentFile,
    '--operator',
    'alice',
  ]);
  t.equal(consent.code, 2);
  t.match(consent.err, /the operator's consent key is readable by group or others/);
  const apiKey = join(dir, 'operator.api-key');
  await writeFile(apiKey, 'pgk_x\n', { mode: 0o640 });
  const pending = await cli([
    'consent',
    'pending',
    '--cloud',
    'http://127.0.0.1:9',
    '--cloud-key-file',
    apiKey,
  ]);
  t.equal(pending.code, 2, 'the API key file is refused before any request');
  t.match(pending.err, /the --cloud-key-file secret is readable by group or others \(mode 0640\)/);
});
