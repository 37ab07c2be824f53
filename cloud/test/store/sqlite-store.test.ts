import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { SqliteStore, WAL_AUTOCHECKPOINT_PAGES } from '../../src/store/sqlite-store.js';
import { openStore } from '../../src/store/open-store.js';
import { storeConformance } from './conformance.js';

const dir = mkdtempSync(join(tmpdir(), 'pentagate-sqlite-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

t.test('group fdatasync (default)', async (t) => {
  storeConformance(t, async () => new SqliteStore({ path: join(dir, `store-${n++}.db`) }));
});
t.test('synchronous=FULL', async (t) => {
  storeConformance(t, async () => new SqliteStore({ path: join(dir, `store-${n++}.db`), sync: 'full' }));
});
t.test('in memory', async (t) => {
  storeConformance(t, async () => new SqliteStore({ path: ':memory:' }));
});

t.test('keeps the data across a reopen of the same file', async (t) => {
  const path = join(dir, 'reopen.db');
  const first = new SqliteStore({ path });
  await first.createTenant({ id: 'ten_1', name: 'a', createdAtMs: 1 });
  await first.close();
  const second = await openStore(`sqlite:${path}`);
  t.teardown(() => second.close());
  t.equal((await second.getTenant('ten_1'))?.name, 'a');
  t.equal(second.kind, 'sqlite');
});

t.test('refuses an unopenable path with a store error', async (t) => {
  const file = join(dir, 'plain-file');
  writeFileSync(file, 'not a directory');
  t.throws(() => new SqliteStore({ path: join(file, 'x.db') }), { code: 'STORE_UNAVAILABLE' });
  await t.rejects(openStore('sqlite:'), { code: 'USAGE' });
});

t.test('checkpoints the WAL every WAL_AUTOCHECKPOINT_PAGES pages, not SQLite default 1,000', async (t) => {
  const store = new SqliteStore({ path: join(dir, 'checkpoint.db') });
  t.teardown(() => store.close());
  t.equal(WAL_AUTOCHECKPOINT_PAGES, 4000);
  t.equal(store.database.pragma('wal_autocheckpoint', { simple: true }), WAL_AUTOCHECKPOINT_PAGES);
});
