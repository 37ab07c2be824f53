/**
 * The reads of one event-loop turn share one read transaction (src/store/sqlite-read-snapshot.ts): it ends
 * with the turn, before every write batch, and at close; what another process commits is seen from the
 * next turn.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { type SyncFile, SqliteWriteQueue } from '../../src/store/sqlite-write-queue.js';

const dir = mkdtempSync(join(tmpdir(), 'pentagate-read-snapshot-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

t.test('the reads of a turn run in one read transaction, which ends with the turn', async (t) => {
  const store = new SqliteStore({ path: join(dir, `s${n++}.db`) });
  t.teardown(() => store.close());
  await store.createTenant({ id: 'ten_1', name: 'a', createdAtMs: 1 });
  t.notOk(store.database.inTransaction, 'no transaction before the first read');
  t.equal((await store.getTenant('ten_1'))?.name, 'a');
  t.ok(store.database.inTransaction, 'the first read opened the turn’s read transaction');
  t.equal((await store.listTenants()).length, 1, 'a second read joins it');
  await nextTurn();
  t.notOk(store.database.inTransaction, 'ended at the end of the turn');
});

t.test('a write batch queued before a read of its turn still commits on its own', async (t) => {
  const path = join(dir, `s${n++}.db`);
  const seenAtSync: (string | undefined)[] = [];
  // Called right after the batch's COMMIT, in the same turn: another connection must already see the row.
  const syncFile: SyncFile = (_fd, done) => {
    const other = new Database(path, { readonly: true });
    const row = other.prepare('SELECT name FROM tenants WHERE id = ?').get('ten_2') as
      | { name: string }
      | undefined;
    other.close();
    seenAtSync.push(row?.name);
    done(null);
  };
  const store = new SqliteStore({ path, syncFile });
  t.teardown(() => store.close());
  const write = store.createTenant({ id: 'ten_2', name: 'b', createdAtMs: 1 }); // its flush is queued first
  t.equal(await store.getTenant('ten_2'), undefined, 'the read of the same turn runs before the batch');
  t.ok(store.database.inTransaction, 'and left the turn’s read transaction open for the batch to meet');
  await write;
  t.same(
    seenAtSync,
    ['b'],
    'committed (seen by another connection) before its fdatasync, not when the read ended',
  );
  t.equal((await store.getTenant('ten_2'))?.name, 'b');
});

t.test('a key another process revokes is refused from the next turn', async (t) => {
  const path = join(dir, `s${n++}.db`);
  const store = new SqliteStore({ path });
  t.teardown(() => store.close());
  await store.createTenant({ id: 'ten_3', name: 'c', createdAtMs: 1 });
  await store.insertApiKey({
    id: 'key_1',
    tenantId: 'ten_3',
    scope: 'agent',
    keyHashHex: 'ab'.repeat(32),
    createdAtMs: 1,
    revokedAtMs: null,
    region: null,
    department: null,
    agentName: null,
  });
  t.equal((await store.findApiKeyByHash('ab'.repeat(32)))?.revokedAtMs, null, 'valid, read in this turn');
  const cli = new Database(path); // `pentagate cloud keys revoke` from another process
  t.teardown(() => cli.close());
  cli.prepare('UPDATE api_keys SET revoked_at_ms = 2 WHERE id = ?').run('key_1');
  t.equal(
    (await store.findApiKeyByHash('ab'.repeat(32)))?.revokedAtMs,
    null,
    'the same turn still reads its snapshot',
  );
  await nextTurn();
  t.equal(
    (await store.findApiKeyByHash('ab'.repeat(32)))?.revokedAtMs,
    2,
    'the next turn sees the revocation',
  );
});

t.test('closing in the turn of a read ends it, and the WAL is folded back and removed', async (t) => {
  const path = join(dir, `s${n++}.db`);
  const store = new SqliteStore({ path });
  await store.createTenant({ id: 'ten_4', name: 'd', createdAtMs: 1 });
  await store.getTenant('ten_4');
  t.ok(store.database.inTransaction);
  await store.close();
  t.notOk(existsSync(`${path}-wal`), 'the last connection checkpointed and removed the WAL');
  const reopened = new SqliteStore({ path });
  t.teardown(() => reopened.close());
  t.equal((await reopened.getTenant('ten_4'))?.name, 'd');
});

t.test('a batch refuses to run inside another transaction instead of becoming its savepoint', async (t) => {
  const db = new Database(':memory:');
  t.teardown(() => db.close());
  db.exec('CREATE TABLE t (v INTEGER)');
  const queue = new SqliteWriteQueue(db);
  db.exec('BEGIN');
  await t.rejects(
    queue.enqueue(() => db.prepare('INSERT INTO t VALUES (1)').run()),
    /a write batch began inside an open transaction/,
  );
  db.exec('ROLLBACK');
  t.equal((db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n, 0, 'nothing written');
  await queue.enqueue(() => db.prepare('INSERT INTO t VALUES (2)').run());
  t.equal((db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n, 1, 'the next batch runs');
});
