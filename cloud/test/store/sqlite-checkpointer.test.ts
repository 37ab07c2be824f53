import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import t from 'tap';
import { AuditLog } from '../../src/audit/audit-log.js';
import { SqliteCheckpointer } from '../../src/store/sqlite-checkpointer.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'pentagate-checkpointer-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** A WAL database whose own connection never checkpoints, with `rows` rows of 1 KB written to its WAL. */
function walDatabase(name: string, rows: number): { path: string; db: Database.Database } {
  const path = join(dir, name);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO notes (body) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(`${i}:${'x'.repeat(1000)}`);
  })();
  return { path, db };
}

/** The rows a copy of the database file alone holds (no WAL beside it): what a checkpoint put there. */
function rowsInMainFile(path: string): number {
  const copy = `${path}.main-only`;
  copyFileSync(path, copy);
  const db = new Database(copy, { readonly: true });
  try {
    const table = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'notes'").get() as {
      n: number;
    };
    return table.n === 0 ? 0 : (db.prepare('SELECT count(*) AS n FROM notes').get() as { n: number }).n;
  } finally {
    db.close();
    rmSync(copy, { force: true });
  }
}

t.test('copies the WAL into the database file from its own thread', async (t) => {
  const { path, db } = walDatabase('copy.db', 400);
  t.teardown(() => db.close());
  t.equal(rowsInMainFile(path), 0, 'before: the rows are only in the WAL');
  const checkpointer = new SqliteCheckpointer(path);
  const result = await checkpointer.checkpoint();
  await checkpointer.close();
  t.ok(result.walFrames > 100, `the WAL held the rows' pages (${result.walFrames} frames)`);
  t.equal(result.checkpointedFrames, result.walFrames, 'every frame copied (no reader held one back)');
  t.equal(rowsInMainFile(path), 400, 'after: the database file alone holds every row');
});

t.test(
  'commits on the store connection go on while the worker copies (PASSIVE takes no writer lock)',
  async (t) => {
    const { path, db } = walDatabase('concurrent.db', 10);
    t.teardown(() => db.close());
    const checkpointer = new SqliteCheckpointer(path);
    t.teardown(() => checkpointer.close());
    await checkpointer.checkpoint(); // the worker is up
    const insert = db.prepare('INSERT INTO notes (body) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 8000; i++) insert.run('z'.repeat(1000));
    })();
    const copying = checkpointer.checkpoint();
    // Synchronous commits on this thread for 300 ms while the worker copies ~8 MB: a writer lock held by
    // the worker would make one of them throw SQLITE_BUSY (this connection has no busy timeout).
    let during = 0;
    for (const until = performance.now() + 300; performance.now() < until; during++) insert.run('during');
    const result = await copying;
    t.ok(result.checkpointedFrames > 1000, `the worker copied ${result.checkpointedFrames} frames`);
    t.equal((db.prepare('SELECT count(*) AS n FROM notes').get() as { n: number }).n, 8010 + during);
  },
);

t.test('asks for at most one checkpoint per interval, and only once commits arrive', async (t) => {
  const { path, db } = walDatabase('interval.db', 200);
  t.teardown(() => db.close());
  const early = new SqliteCheckpointer(path, 1000, 0);
  early.afterCommit(500);
  // nothing asked for: the worker is not even started, so close has nothing to wait for
  await early.close();
  t.equal(rowsInMainFile(path), 0, 'no checkpoint before the interval has passed');
  const due = new SqliteCheckpointer(path, 1000, 0);
  due.afterCommit(1000);
  due.afterCommit(1001); // one is asked for; the worker answers in order, so it runs before close
  await due.close();
  t.equal(rowsInMainFile(path), 200, 'the checkpoint asked for at the interval ran');
});

t.test(
  'a worker that cannot open the database fails its checkpoints with the reason, and closes',
  async (t) => {
    const checkpointer = new SqliteCheckpointer(join(dir, 'missing', 'none.db'));
    await t.rejects(checkpointer.checkpoint(), /WAL checkpoint failed: .*(unable to open|directory)/i);
    t.match(checkpointer.failure, /unable to open|directory/i);
    checkpointer.afterCommit(Number.MAX_SAFE_INTEGER); // ignored once failed
    await checkpointer.close();
  },
);

t.test(
  'a worker that cannot even start never throws from afterCommit (its batch has committed)',
  async (t) => {
    // workerData that cannot be cloned: the Worker constructor throws synchronously
    const checkpointer = new SqliteCheckpointer((() => 'x') as unknown as string, 0, 0);
    t.doesNotThrow(() => checkpointer.afterCommit(1));
    t.match(checkpointer.failure, /clone/i);
    await t.rejects(checkpointer.checkpoint(), /WAL checkpoint failed: .*clone/i);
    await checkpointer.close();
  },
);

t.test(
  'the store checkpoints on the worker between its automatic checkpoints, and closes cleanly',
  async (t) => {
    const path = join(dir, 'store.db');
    const store = new SqliteStore({ path });
    await store.createTenant({ id: 'ten_1', name: 'a', createdAtMs: 1 });
    const mainBefore = statSync(path).size;
    // Entries of ~2 KB, one per commit, until the database file grows: far below the store's automatic
    // checkpoint (4,000 pages), so only the worker's checkpoints (one per 200 ms of commits) can grow it.
    let written = 0;
    const deadline = performance.now() + 20_000;
    while (statSync(path).size === mainBefore && performance.now() < deadline) {
      await store.appendAudit(
        AuditLog.builder({ type: 'note', actor: 'system', data: { note: 'y'.repeat(2000) } }, 1),
      );
      written++;
    }
    const walPages = statSync(`${path}-wal`).size / 4096;
    t.ok(statSync(path).size > mainBefore, `the database file grew after ${written} commits`);
    t.ok(walPages < 4000, `before any automatic checkpoint (WAL ${Math.round(walPages)} pages)`);
    // closing waits for the worker to close its connection, so the store's is the last and removes the WAL
    await store.close();
    t.notOk(existsSync(`${path}-wal`), 'the store connection closed last and removed the WAL');
    const reopened = new SqliteStore({ path });
    t.teardown(() => reopened.close());
    t.equal(await reopened.auditSize(), written, 'every entry is there after the reopen');
  },
);

t.test('a process whose store was never closed still ends once its work is done', async (t) => {
  const { path, db } = walDatabase('left-open.db', 50);
  db.close();
  // The checkpointer's worker is started and left running, as by a command that returns without closing
  // its store: the process must still end (the worker holds no reference on it).
  const source = pathToFileURL(join(import.meta.dirname, '../../src/store/sqlite-checkpointer.ts')).href;
  const program = `
    const { SqliteCheckpointer } = await import(${JSON.stringify(source)});
    const checkpointer = new SqliteCheckpointer(${JSON.stringify(path)}, 0, 0);
    checkpointer.afterCommit(1);
    console.log('worker asked for');
  `;
  const started = performance.now();
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...process.execArgv, '--input-type=module', '-e', program],
    { timeout: 60_000 },
  );
  t.equal(stdout.trim(), 'worker asked for');
  t.ok(performance.now() - started < 60_000, 'ended by itself');
});
