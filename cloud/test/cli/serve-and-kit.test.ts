/**
 * `pentagate cloud serve` on a real port and `pentagate cloud audit export`: a run over real sockets,
 * then an audit kit that `verifyAuditKit` (@pentagate/verifier) accepts, and rejects after any byte changes.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TrustStore, generateEd25519, writeEd25519KeyFile } from '@pentagate/crypto';
import { InvalidInputError } from '@pentagate/protocol';
import { verifyAuditKit } from '@pentagate/verifier';
import fc from 'fast-check';
import t from 'tap';
import { serveShutdown } from '../../src/cli/serve-command.js';
import { startServer } from '../../src/cli/server.js';
import { EXAMPLE_POLICY_PATH, registration, selfCorrectBody, transferCall } from '../helpers/cloud-app.js';
import { cli, serveInProcess } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'pentagate-serve-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const stateDir = join(dir, 'state');

async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

async function kitValid(kit: string, trust: TrustStore): Promise<boolean> {
  try {
    return (await verifyAuditKit(kit, { trust })).valid;
  } catch (err) {
    if (err instanceof InvalidInputError) return false; // an unreadable manifest is a refused kit too
    throw err;
  }
}

t.test('serves over a real port, then exports an audit kit that verifies offline', async (t) => {
  const tenant = JSON.parse(
    (await cli('cloud', 'tenant', 'create', 'acme', '--state-dir', stateDir, '--json')).out,
  ).id;
  const issue = async (scope: string, ...binding: string[]) =>
    JSON.parse(
      (
        await cli(
          'cloud',
          'apikey',
          'issue',
          '--tenant',
          tenant,
          '--scope',
          scope,
          ...binding,
          '--state-dir',
          stateDir,
          '--json',
        )
      ).out,
    ) as { key: string; region?: string; department?: string };
  const issued = await issue('agent', '--region', 'EU', '--department', 'finance');
  t.match(issued, { region: 'EU', department: 'finance' }, 'the CLI binds the jurisdiction to the key');
  const agentKey = issued.key;
  const auditorKey = (await issue('auditor')).key;

  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    db: `sqlite:${join(stateDir, 'cloud.db')}`,
    stateDir,
    policyFile: EXAMPLE_POLICY_PATH,
    app: { rateLimit: false },
  });
  t.equal(server.generatedKey, true, 'the first start generates the signing key');
  t.equal(statSync(server.signingKeyPath).mode & 0o777, 0o600, 'the key file is private');
  const auth = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
  const post = (path: string, key: string, body: unknown) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: auth(key), body: JSON.stringify(body) });

  const reg = await post('/api/v1/agentgate/register', agentKey, registration('billing'));
  t.equal(reg.status, 201);
  const lobe = (await json(reg)).lobe_name as string;
  const ok = await post('/api/v1/agentgate/propose', agentKey, transferCall(lobe));
  t.equal(ok.status, 200);
  t.equal((await json(ok)).approved, true);
  const veto = await post(
    '/api/v1/selfcorrect',
    agentKey,
    selfCorrectBody('x', 0, { tool_name: 'shell.run', tool_args: {} }),
  );
  t.equal(veto.status, 403);
  t.equal((await json(veto)).type, 'SERVICE_GOVERNANCE_VETO');
  const bad = await fetch(`${server.url}/api/v1/agentgate/propose`, {
    method: 'POST',
    headers: auth(agentKey),
    body: '{',
  });
  t.equal(bad.status, 400);
  t.equal(((await json(bad)).error as { code: string }).code, 'INVALID_JSON');
  const anon = await fetch(`${server.url}/api/v1/keys`);
  t.equal(anon.status, 401);
  const keysDoc = await json(await fetch(`${server.url}/api/v1/keys`, { headers: auth(auditorKey) }));
  const trust = TrustStore.fromDocument(keysDoc);
  await server.stop();

  const restarted = await startServer({
    port: 0,
    host: '127.0.0.1',
    db: `sqlite:${join(stateDir, 'cloud.db')}`,
    stateDir,
  });
  t.equal(restarted.generatedKey, false, 'a restart reuses the key');
  t.equal(restarted.proofKid, server.proofKid);
  await restarted.stop();

  const kit = join(dir, 'kit');
  const exported = await cli('cloud', 'audit', 'export', '--state-dir', stateDir, '--out', kit, '--json');
  t.equal(exported.code, 0, exported.err);
  t.same(readdirSync(kit).sort(), ['checkpoint.note', 'entries.jsonl', 'manifest.json', 'trust.json']);
  const report = await verifyAuditKit(kit, { trust });
  t.equal(report.valid, true, report.failures.join('; '));
  t.ok(
    report.checks.some((c) => c.name === 'signed entries' && c.ok),
    'the decision envelopes in the log verify',
  );
  const lines = readFileSync(join(kit, 'entries.jsonl'), 'utf8').trimEnd().split('\n');
  const types = new Set(lines.map((l) => JSON.parse(l).type));
  for (const type of ['tenant', 'key', 'policy', 'agent.registered', 'decision', 'refusal'])
    t.ok(types.has(type), `the log holds ${type}`);

  // Flip one byte anywhere in the kit: verification must fail. The one exception is the manifest's
  // createdAt value, which nothing signs (see the README): it is skipped, and documented as a limit.
  const files = readdirSync(kit);
  const manifestText = readFileSync(join(kit, 'manifest.json'), 'utf8');
  const createdAtValue = /"createdAt":"([^"]*)"/.exec(manifestText)!;
  const unsignedFrom = createdAtValue.index + '"createdAt":"'.length;
  const unsignedTo = unsignedFrom + createdAtValue[1]!.length;
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...files),
      fc.nat(),
      fc.integer({ min: 1, max: 255 }),
      async (file, at, mask) => {
        const path = join(kit, file);
        const original = readFileSync(path);
        const changed = Buffer.from(original);
        let position = at % changed.length;
        if (file === 'manifest.json' && position >= unsignedFrom && position < unsignedTo)
          position = unsignedTo;
        changed[position]! ^= mask;
        writeFileSync(path, changed);
        try {
          return !(await kitValid(kit, trust));
        } finally {
          writeFileSync(path, original);
        }
      },
    ),
    { numRuns: 200 },
  );
  t.equal(await kitValid(kit, trust), true, 'the restored kit verifies again');

  const again = await cli('cloud', 'audit', 'export', '--state-dir', stateDir, '--out', kit);
  t.equal(again.code, 2, 'refuses a non-empty directory');
  t.match(again.err, /empty or new directory/);
  const otherKey = join(dir, 'other.pem');
  await writeEd25519KeyFile(otherKey, generateEd25519().privateKey);
  const wrongKey = await cli(
    'cloud',
    'audit',
    'export',
    '--state-dir',
    stateDir,
    '--signing-key',
    otherKey,
    '--out',
    join(dir, 'kit2'),
  );
  t.equal(wrongKey.code, 2);
  t.match(wrongKey.err, /never used/);
});

t.test('`cloud serve` runs until asked to shut down, then stops cleanly', async (t) => {
  // serveShutdown is the emitter SIGINT/SIGTERM are wired to (see serveInProcess)
  const serving = await serveInProcess(
    '--state-dir',
    join(dir, 'serve-state'),
    '--log-level',
    'silent',
    '--rate-limit',
    '100',
    '--body-limit',
    '65536',
  );
  const { base, exit } = serving;
  t.equal((await fetch(`${base}/healthz`)).status, 200);
  t.equal(process.listenerCount('SIGTERM') > 0, true, 'SIGTERM is wired while serving');
  serveShutdown.emit('shutdown', 'SIGTERM');
  t.equal(await exit, 0);
  t.match(serving.err(), /listening on http:\/\/127\.0\.0\.1:\d+/);
  t.match(serving.err(), /SIGTERM: draining/);
  t.match(serving.err(), /stopped/);
  await t.rejects(fetch(`${base}/healthz`), 'the port is closed');
});

t.test('`cloud serve` refuses bad options with exit 2', async (t) => {
  const port = await cli('cloud', 'serve', '--port', '70000');
  t.equal(port.code, 2);
  t.match(port.err, /--port: expected 0..65535/);
  const rate = await cli('cloud', 'serve', '--rate-limit', '0');
  t.equal(rate.code, 2);
  const policy = await cli(
    'cloud',
    'serve',
    '--port',
    '0',
    '--state-dir',
    join(dir, 's3'),
    '--policy',
    join(dir, 'missing.yaml'),
  );
  t.equal(policy.code, 2);
  t.match(policy.err, /--policy: cannot read \S+missing\.yaml: no such file or directory \(ENOENT\)/);
  const folder = await cli('cloud', 'serve', '--port', '0', '--state-dir', join(dir, 's3'), '--policy', dir);
  t.equal(folder.code, 2);
  t.equal(
    folder.err,
    `pentagate cloud serve: --policy: cannot read ${dir}: is a directory, expected a file (EISDIR)\n`,
  );
});

t.test('`cloud serve` refuses a signing key that group or others may read', async (t) => {
  // A key copied with `cp` under the usual umask is 0644: anyone on the machine could sign approvals with it.
  const loose = join(dir, 'loose-signer.pem');
  await writeEd25519KeyFile(loose);
  chmodSync(loose, 0o644);
  const given = await cli(
    'cloud',
    'serve',
    '--port',
    '0',
    '--state-dir',
    join(dir, 's-loose'),
    '--signing-key',
    loose,
  );
  t.equal(given.code, 2);
  t.match(
    given.err,
    /loose-signer\.pem: the signing key is readable by group or others \(mode 0644\).*chmod 600/,
  );
  t.notMatch(given.err, /PRIVATE KEY|"d":/, 'no key material in the message');
  // The default key in the state directory, loosened after it was written there.
  const state = join(dir, 's-loosened');
  mkdirSync(state, { mode: 0o700 });
  await writeEd25519KeyFile(join(state, 'signing-key.pem'));
  chmodSync(join(state, 'signing-key.pem'), 0o640);
  const again = await cli('cloud', 'serve', '--port', '0', '--state-dir', state);
  t.equal(again.code, 2);
  t.match(again.err, /signing-key\.pem: the signing key is readable by group or others \(mode 0640\)/);
});

t.test('audit export from a store no serve has used says so, not that the key is wrong', async (t) => {
  const fresh = await cli(
    'cloud',
    'audit',
    'export',
    '--state-dir',
    join(dir, 'never-served'),
    '--out',
    join(dir, 'kit3'),
  );
  t.equal(fresh.code, 2);
  t.match(
    fresh.err,
    /this store has no audit log yet: `pentagate cloud serve` with the same --state-dir or --db/,
  );
  t.notMatch(fresh.err, /never used/);
  t.notOk(readdirSync(dir).includes('kit3'), 'no kit directory is written');
  t.notOk(existsSync(join(dir, 'never-served')), 'no database, signing key or state directory is created');

  // a served database, but the default key looked for in a state directory that has none
  const keyless = join(dir, 'keyless');
  const noKey = await cli(
    'cloud',
    'audit',
    'export',
    '--db',
    `sqlite:${join(stateDir, 'cloud.db')}`,
    '--state-dir',
    keyless,
    '--out',
    join(dir, 'kit4'),
  );
  t.equal(noKey.code, 2);
  t.match(noKey.err, /signing key: .*signing-key\.pem does not exist; give the key the log was served with/);
  t.notOk(existsSync(keyless), 'no key is generated for an export');
  t.notOk(readdirSync(dir).includes('kit4'));
});
