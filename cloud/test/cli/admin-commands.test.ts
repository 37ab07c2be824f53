/** `pentagate cloud tenant|apikey …`: ids and keys printed once, keys stored hashed, revocation enforced. */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { hashApiKey } from '../../src/tenants/api-key.js';
import { cli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'pentagate-cli-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const db = `sqlite:${join(dir, 'cloud.db')}`;

t.test('creates a tenant, issues, lists and revokes keys', async (t) => {
  const created = await cli('cloud', 'tenant', 'create', 'ACME Corp', '--db', db, '--json');
  t.equal(created.code, 0, created.err);
  const { id } = JSON.parse(created.out);
  t.match(id, /^ten_[0-9A-Z]{26}$/);
  const plain = await cli('cloud', 'tenant', 'create', 'Other', '--db', db);
  t.match(plain.out.trim(), /^ten_[0-9A-Z]{26}$/);

  const issued = await cli(
    'cloud',
    'apikey',
    'issue',
    '--tenant',
    id,
    '--scope',
    'agent',
    '--db',
    db,
    '--json',
  );
  t.equal(issued.code, 0, issued.err);
  const { key, id: keyId } = JSON.parse(issued.out);
  t.match(key, /^pgk_[A-Za-z0-9_-]{43}$/);
  const text = await cli('cloud', 'apikey', 'issue', '--tenant', id, '--scope', 'auditor', '--db', db);
  t.match(text.out.trim(), /^pgk_/);
  t.match(text.err, /shown once/);

  const store = new SqliteStore({ path: join(dir, 'cloud.db') });
  const stored = await store.findApiKeyByHash(hashApiKey(key));
  t.equal(stored?.id, keyId, 'stored under its SHA-256');
  const keysTable = JSON.stringify(await store.listApiKeys(id));
  t.notMatch(keysTable, key.slice(4), 'the key text is not stored');
  await store.close();

  const listed = await cli('cloud', 'apikey', 'list', '--tenant', id, '--db', db, '--json');
  const rows = JSON.parse(listed.out).keys;
  t.same(rows.map((r: { scope: string }) => r.scope).sort(), ['agent', 'auditor']);
  t.notMatch(listed.out, /pgk_/, 'list never shows keys');
  const human = await cli('cloud', 'apikey', 'list', '--tenant', id, '--db', db);
  t.match(human.out, /active/);

  const revoked = await cli('cloud', 'apikey', 'revoke', '--tenant', id, keyId, '--db', db, '--json');
  t.equal(revoked.code, 0, revoked.err);
  t.same(JSON.parse(revoked.out), { id: keyId, revoked: true });
  const again = await cli('cloud', 'apikey', 'revoke', '--tenant', id, keyId, '--db', db);
  t.equal(again.code, 2, 'a second revoke is refused');
  t.match(again.err, /unrevoked key/);
  t.match((await cli('cloud', 'apikey', 'list', '--tenant', id, '--db', db)).out, /revoked 20/);
});

t.test('binds an agent key to one agent_name with --agent, and only an agent key', async (t) => {
  const { id } = JSON.parse((await cli('cloud', 'tenant', 'create', 'Bound', '--db', db, '--json')).out);
  const issue = (...extra: string[]) =>
    cli('cloud', 'apikey', 'issue', '--tenant', id, '--db', db, '--json', ...extra);
  const issued = await issue('--scope', 'agent', '--agent', 'billing-agent');
  t.equal(issued.code, 0, issued.err);
  const { key, agent } = JSON.parse(issued.out);
  t.equal(agent, 'billing-agent');
  const store = new SqliteStore({ path: join(dir, 'cloud.db') });
  t.equal((await store.findApiKeyByHash(hashApiKey(key)))?.agentName, 'billing-agent', 'stored with the key');
  await store.close();
  const listed = JSON.parse((await cli('cloud', 'apikey', 'list', '--tenant', id, '--db', db, '--json')).out);
  t.same(
    listed.keys.map((k: { agent: string | null }) => k.agent),
    ['billing-agent'],
  );
  t.match((await cli('cloud', 'apikey', 'list', '--tenant', id, '--db', db)).out, /agent billing-agent/);
  const operator = await issue('--scope', 'operator', '--agent', 'billing-agent');
  t.equal(operator.code, 2);
  t.match(operator.err, /only a key of scope agent is bound to an agent, got scope operator/);
  const badName = await issue('--scope', 'agent', '--agent', 'a\u0007b');
  t.equal(badName.code, 2);
  t.match(badName.err, /expected an agent_name of 1\.\.128 printable characters/);
  const help = await cli('cloud', 'apikey', 'issue', '--help');
  t.match(help.out + help.err, /--agent NAME/);
});

t.test('refuses bad usage and unknown tenants with exit 2 and one clear line', async (t) => {
  const noTenant = await cli('cloud', 'apikey', 'issue', '--scope', 'agent', '--db', db);
  t.equal(noTenant.code, 2);
  t.match(noTenant.err, /--tenant is required/);
  const badScope = await cli('cloud', 'apikey', 'issue', '--tenant', 'ten_x', '--scope', 'root', '--db', db);
  t.equal(badScope.code, 2);
  t.match(badScope.err, /expected one of agent, operator, auditor, admin, got "root"/);
  const unknown = await cli(
    'cloud',
    'apikey',
    'issue',
    '--tenant',
    'ten_nope',
    '--scope',
    'agent',
    '--db',
    db,
  );
  t.equal(unknown.code, 2);
  t.match(unknown.err, /expected an existing tenant id/);
  const listUnknown = await cli('cloud', 'apikey', 'list', '--tenant', 'ten_nope', '--db', db);
  t.equal(listUnknown.code, 2);
  const badName = await cli('cloud', 'tenant', 'create', 'a\u0007b', '--db', db);
  t.equal(badName.code, 2);
  t.notMatch(badName.err, /at .*\.ts/, 'no stack trace');
  const empty = await cli(
    'cloud',
    'apikey',
    'list',
    '--tenant',
    JSON.parse((await cli('cloud', 'tenant', 'create', 'E', '--db', db, '--json')).out).id,
    '--db',
    db,
  );
  t.match(empty.out, /no keys/);
});

t.test('refuses a --db URL of another kind instead of making a SQLite file named after it', async (t) => {
  const cwd = process.cwd();
  process.chdir(dir);
  t.teardown(() => process.chdir(cwd));
  for (const db of ['mysql://db.example/pentagate', 'postgre://127.0.0.1/test']) {
    const r = await cli('cloud', 'tenant', 'create', 'X', '--db', db);
    t.equal(r.code, 2, db);
    t.match(r.err, /--db: expected sqlite:PATH or postgres:\/\/…, got "/, db);
    t.notMatch(r.err, /at .*\.ts/, 'no stack trace');
  }
  t.notOk(existsSync(join(dir, 'mysql:')), 'no database folder was made for the mistaken URL');
  t.notOk(existsSync(join(dir, 'postgre:')));
});

t.test('uses the state dir database when --db is not given', async (t) => {
  const stateDir = join(dir, 'state');
  const created = await cli('cloud', 'tenant', 'create', 'Local', '--state-dir', stateDir, '--json');
  t.equal(created.code, 0, created.err);
  const store = new SqliteStore({ path: join(stateDir, 'cloud.db') });
  t.equal((await store.getTenant(JSON.parse(created.out).id))?.name, 'Local');
  await store.close();
});

t.test('tenant create as the first command makes the state dir 0700 and the database 0600', async (t) => {
  const stateDir = join(dir, 'first', 'cloud');
  const created = await cli('cloud', 'tenant', 'create', 'First', '--state-dir', stateDir);
  t.equal(created.code, 0, created.err);
  t.equal(statSync(join(dir, 'first')).mode & 0o777, 0o700, 'every folder it creates');
  t.equal(statSync(stateDir).mode & 0o777, 0o700, 'the state dir');
  t.equal(statSync(join(stateDir, 'cloud.db')).mode & 0o777, 0o600, 'the database');
});
