/** `pentagate cloud robot add|list|retire`: the edge key printed once and bound, changes audited, retire revokes. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { hashApiKey } from '../../src/tenants/api-key.js';
import { cli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'pentagate-robot-cli-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const db = `sqlite:${join(dir, 'cloud.db')}`;
const digest = 'ab'.repeat(32);

t.test('adds, lists and retires a robot', async (t) => {
  const tenant = JSON.parse((await cli('cloud', 'tenant', 'create', 'ACME', '--db', db, '--json')).out)
    .id as string;
  const add = (robot: string, ...extra: string[]) =>
    cli(
      'cloud',
      'robot',
      'add',
      '--tenant',
      tenant,
      '--robot',
      robot,
      '--command-kid',
      'ur5e-01-cmd',
      '--profile-digest',
      digest,
      '--db',
      db,
      ...extra,
    );
  const added = await add('ur5e-01', '--json');
  t.equal(added.code, 0, added.err);
  const { edgeKey, edgeKeyId, robotId } = JSON.parse(added.out);
  t.equal(robotId, 'ur5e-01');
  t.match(edgeKey, /^pgk_[A-Za-z0-9_-]{43}$/);
  const again = await add('ur5e-01');
  t.equal(again.code, 2, 'a robot id is registered once');
  t.match(again.err, /already registered/);
  t.equal((await add('bad/robot')).code, 2, 'a robot id that is not a topic-safe name is refused');
  t.equal(
    (await cli('cloud', 'apikey', 'issue', '--tenant', tenant, '--scope', 'edge', '--db', db)).code,
    2,
    'edge keys come only with a robot',
  );

  const listed = await cli('cloud', 'robot', 'list', '--tenant', tenant, '--db', db, '--json');
  t.same(
    JSON.parse(listed.out).robots.map((r: { robotId: string; retiredAt: null }) => [r.robotId, r.retiredAt]),
    [['ur5e-01', null]],
  );
  t.notMatch(listed.out, /pgk_/, 'the listing never shows the key');

  const retired = await cli('cloud', 'robot', 'retire', '--tenant', tenant, 'ur5e-01', '--db', db);
  t.equal(retired.code, 0, retired.err);
  t.equal((await cli('cloud', 'robot', 'retire', '--tenant', tenant, 'ur5e-01', '--db', db)).code, 2, 'once');

  const store = new SqliteStore({ path: join(dir, 'cloud.db') });
  t.teardown(() => store.close());
  const key = await store.findApiKeyByHash(hashApiKey(edgeKey));
  t.same(
    [key?.id, key?.scope, key?.revokedAtMs !== null],
    [edgeKeyId, 'edge', true],
    'the edge key is stored hashed and revoked',
  );
  const log = await store.auditEntries(0, await store.auditSize());
  t.same(
    log.filter((e) => e.entry.type === 'robot').map((e) => e.entry.data.action),
    ['add', 'retire'],
    'both changes are audited',
  );
});

t.test(
  '`cloud operator enroll|retire|list`: an admin replaces and retires consent keys, audited',
  async (t) => {
    const tenant = JSON.parse((await cli('cloud', 'tenant', 'create', 'Ops', '--db', db, '--json')).out)
      .id as string;
    const publicKey = (byte: number) => Buffer.alloc(32, byte).toString('base64url');
    // two usable Ed25519 points: the base point's encoding and another from RFC 8032 §7.1 (TEST 1's public key)
    const keys = [
      'WGZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmY',
      '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
    ];
    const enrol = (key: string) =>
      cli(
        'cloud',
        'operator',
        'enroll',
        '--tenant',
        tenant,
        '--operator',
        'alice',
        '--public-key',
        key,
        '--db',
        db,
        '--json',
      );
    const first = await enrol(keys[0]!);
    t.equal(first.code, 0, first.err);
    const second = await enrol(keys[1]!);
    t.equal(second.code, 0, 'the server admin replaces an active key');
    t.not(JSON.parse(second.out).kid, JSON.parse(first.out).kid);
    t.equal((await enrol(publicKey(0))).code, 2, 'an unusable key is refused');

    const retire = () =>
      cli('cloud', 'operator', 'retire', '--tenant', tenant, '--operator', 'alice', '--db', db);
    const retired = await retire();
    t.equal(retired.code, 0, retired.err);
    t.match(retired.out, `operator alice: consent key ${JSON.parse(second.out).kid} retired (audit entry`);
    const twice = await retire();
    t.equal(twice.code, 1, 'nothing left to retire');
    t.match(twice.err, /operator alice has no active consent key/);
    const listed = JSON.parse(
      (await cli('cloud', 'operator', 'list', '--tenant', tenant, '--db', db, '--json')).out,
    );
    t.equal(listed.operators.length, 1);
    t.match(listed.operators[0], {
      operatorId: 'alice',
      kid: JSON.parse(second.out).kid,
      retiredAt: /^\d{4}-/,
    });
  },
);
