/**
 * A signing key rotation: the servers move to a new seed, the old kids are retired
 * (`pentagate cloud keys retire`), and the trust document carries their `notAfter`. Verifiers keep
 * accepting what a retired key signed before its end and refuse what it signed after; a server refuses to
 * start with a retired key; a retirement is final, audited, and refused for unknown kids or for a time
 * before the key's start. SQLite here; the store method is in the conformance suite for both stores.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateEd25519, TrustStore, writeEd25519KeyFile } from '@pentagate/crypto';
import { verifyGovernanceToken } from '@pentagate/verifier';
import t from 'tap';
import { buildApp, type CloudApp } from '../../src/app/build-app.js';
import { RETIREMENT_GRACE_MS } from '../../src/cli/key-commands.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { cli } from '../helpers/cli.js';
import {
  bearer,
  EXAMPLE_POLICY,
  registration,
  type TestTenant,
  testTenant,
  transferCall,
} from '../helpers/cloud-app.js';

interface ListedKey {
  kid: string;
  role: string;
  notBefore: string;
  notAfter: string | null;
}

t.test('old keys are retired after a rotation: earlier signatures hold, later ones do not', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pentagate-keys-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'cloud.db');
  const db = `sqlite:${path}`;
  const store = new SqliteStore({ path });
  t.teardown(() => store.close());
  const tenant = await testTenant(store, 'rotating');
  const [oldSeed, newSeed] = [generateEd25519().privateKey, generateEd25519().privateKey];
  const start = (signingSeed: Uint8Array) =>
    buildApp({
      store,
      ownsStore: false,
      signingSeed,
      rateLimit: false,
      policy: { yamlText: EXAMPLE_POLICY, source: 'example.yaml' },
    });
  const approvedToken = async (app: CloudApp, who: TestTenant, agent: string) => {
    const reg = await app.inject({
      method: 'POST',
      url: '/api/v1/agentgate/register',
      headers: bearer(who.keys.agent),
      payload: registration(agent),
    });
    const request = transferCall(reg.json().lobe_name, 50);
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/agentgate/propose',
      headers: bearer(who.keys.agent),
      payload: request,
    });
    t.equal(res.json().approved, true, res.body);
    return { token: res.json().governance_token as string, request };
  };
  const listKeys = async (): Promise<ListedKey[]> => {
    const listed = await cli('cloud', 'keys', 'list', '--db', db, '--json');
    t.equal(listed.code, 0, listed.err);
    return JSON.parse(listed.out).keys;
  };

  const before = await start(oldSeed);
  const signedByOld = await approvedToken(before, tenant, 'agent-before');
  await before.close();
  const oldKeys = await listKeys();
  t.same(
    oldKeys.map((k) => [k.role, k.notAfter]).sort(),
    [
      ['checkpoint', null],
      ['proof', null],
    ],
    'the first server recorded its proof and checkpoint keys, both active',
  );

  // rotation: the servers start with the new seed; a decision is signed by it
  const after = await start(newSeed);
  await new Promise((resolve) => setTimeout(resolve, 5));
  const signedByNew = await approvedToken(after, tenant, 'agent-after');
  await after.close();
  const newProof = (await listKeys()).find(
    (k) => k.role === 'proof' && !oldKeys.some((o) => o.kid === k.kid),
  )!;

  for (const key of oldKeys) {
    const before = Date.now();
    const retired = await cli('cloud', 'keys', 'retire', key.kid, '--db', db, '--json');
    t.equal(retired.code, 0, retired.err);
    // by default a few seconds ahead: a running server stops signing before the key's notAfter
    t.ok(
      Date.parse(JSON.parse(retired.out).notAfter) >= before + RETIREMENT_GRACE_MS,
      'the default notAfter leaves running servers the time to stop signing',
    );
    t.match(retired.err, /a server running with \w+ stops signing with it within a second/);
    t.match(JSON.parse(retired.out), { kid: key.kid, roles: [key.role] });
  }
  const again = await cli('cloud', 'keys', 'retire', oldKeys[0]!.kid, '--db', db);
  t.equal(again.code, 2, 'a retirement is final');
  t.match(again.err, /already retired at/);
  const unknown = await cli('cloud', 'keys', 'retire', 'f'.repeat(16), '--db', db);
  t.equal(unknown.code, 2);
  t.match(unknown.err, /no key "f+" is recorded/);
  const early = await cli(
    'cloud',
    'keys',
    'retire',
    newProof.kid,
    '--at',
    '2000-01-01T00:00:00Z',
    '--db',
    db,
  );
  t.equal(early.code, 2);
  t.match(early.err, /before the key's start/);
  const badTime = await cli('cloud', 'keys', 'retire', newProof.kid, '--at', 'tomorrow', '--db', db);
  t.equal(badTime.code, 2);
  t.match(badTime.err, /--at: expected an RFC 3339 timestamp/);

  await t.rejects(start(oldSeed), /was retired at .*start the server with the key that replaced it/);
  // an export with the old key would sign a checkpoint after its key's retirement, which `verify kit` refuses
  const oldKeyFile = join(dir, 'old.pem');
  await writeEd25519KeyFile(oldKeyFile, oldSeed);
  const oldExport = await cli(
    'cloud',
    'audit',
    'export',
    '--db',
    db,
    '--signing-key',
    oldKeyFile,
    '--out',
    join(dir, 'kit-old'),
  );
  t.equal(oldExport.code, 2, 'no kit is exported with a retired key');
  t.match(oldExport.err, /was retired at .*export the audit kit with the key that replaced it/);
  t.notOk(existsSync(join(dir, 'kit-old', 'checkpoint.note')), 'nothing was written');

  const server = await start(newSeed);
  t.teardown(() => server.close());
  const document = (
    await server.inject({ method: 'GET', url: '/api/v1/keys', headers: bearer(tenant.keys.auditor) })
  ).json();
  t.ok(
    oldKeys.every((o) =>
      document.keys.some((k: { kid: string; notAfter?: string }) => k.kid === o.kid && k.notAfter),
    ),
    'the trust document gives the old keys their end',
  );
  const trust = TrustStore.fromDocument(document);
  t.equal(
    verifyGovernanceToken(signedByOld.token, trust, { request: signedByOld.request }).valid,
    true,
    'what the old key signed before its retirement still verifies',
  );
  t.equal(verifyGovernanceToken(signedByNew.token, trust, { request: signedByNew.request }).valid, true);

  // the new key retired at its own start: what it signed after that no longer verifies
  const atStart = await cli('cloud', 'keys', 'retire', newProof.kid, '--at', newProof.notBefore, '--db', db);
  t.equal(atStart.code, 0, atStart.err);
  const retiredTrust = TrustStore.fromDocument(
    (
      await server.inject({ method: 'GET', url: '/api/v1/keys', headers: bearer(tenant.keys.auditor) })
    ).json(),
  );
  t.equal(
    verifyGovernanceToken(signedByNew.token, retiredTrust, { request: signedByNew.request }).valid,
    false,
    'a signature made after the key was retired is refused',
  );

  // read afresh: this process's store counts as durable only what it wrote itself
  const reader = new SqliteStore({ path });
  t.teardown(() => reader.close());
  const entries = await reader.auditEntries(0, await reader.auditSize());
  const retirements = entries.filter(
    (e) => e.entry.type === 'key' && (e.entry.data as { action?: string }).action === 'retire',
  );
  t.same(
    retirements.map((e) => (e.entry.data as { kid: string }).kid),
    [...oldKeys.map((k) => k.kid), newProof.kid],
    'each retirement is an audit entry',
  );
});
