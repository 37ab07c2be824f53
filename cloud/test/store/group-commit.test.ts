/**
 * Group commit (sqlite-write-queue.ts): many writes share one transaction and one fdatasync, and none of
 * them is answered before that fdatasync — begun after its COMMIT — has completed. A failed fdatasync fails
 * every write it covered; nothing of the batch is reported durable.
 */
import { fdatasync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { AuditLog } from '../../src/audit/audit-log.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { SyncFile } from '../../src/store/sqlite-write-queue.js';

const dir = mkdtempSync(join(tmpdir(), 'pentagate-group-commit-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** A stand-in for fdatasync that runs the real one only when the test releases it. */
function heldSync() {
  const held: { fd: number; done: (err: NodeJS.ErrnoException | null) => void }[] = [];
  const syncFile: SyncFile = (fd, done) => held.push({ fd, done });
  return {
    syncFile,
    held,
    release(err?: NodeJS.ErrnoException) {
      const { fd, done } = held.shift()!;
      if (err) done(err);
      else fdatasync(fd, done);
    },
  };
}

const turns = (k: number) =>
  new Promise<void>((resolve) => {
    let left = k;
    const next = () => (--left <= 0 ? resolve() : setImmediate(next));
    setImmediate(next);
  });

const append = (store: SqliteStore, i: number) =>
  store.appendAudit(AuditLog.builder({ type: 'tenant', actor: 'test', data: { i } }, 1_700_000_000_000));

t.test('no write is answered before the fdatasync after its commit completes', async (t) => {
  const sync = heldSync();
  const store = new SqliteStore({ path: join(dir, `s${n++}.db`), syncFile: sync.syncFile });
  t.teardown(() => store.close());
  const answered: number[] = [];
  const first = Array.from({ length: 50 }, (_, i) => append(store, i).then((r) => answered.push(r.index)));
  await turns(5);
  t.equal(sync.held.length, 1, 'the 50 writes committed as one batch and asked for one fdatasync');
  t.same(answered, [], 'none answered while that fdatasync is pending');
  t.equal(await store.auditSize(), 0, 'the durable size does not count them yet');

  const second = Array.from({ length: 20 }, (_, i) =>
    append(store, 100 + i).then((r) => answered.push(r.index)),
  );
  await turns(5);
  t.equal(sync.held.length, 1, 'a batch committed during the fdatasync waits for the next one');
  sync.release();
  await Promise.all(first);
  await turns(3);
  t.equal(answered.length, 50, 'the first fdatasync answers exactly the first batch');
  t.equal(await store.auditSize(), 50);
  t.equal(sync.held.length, 1, 'the second batch gets its own fdatasync');
  sync.release();
  await Promise.all(second);
  t.same(
    [...answered].sort((a, b) => a - b),
    Array.from({ length: 70 }, (_, i) => i),
    'every write answered once, indices contiguous',
  );
  t.equal(await store.auditSize(), 70);
});

t.test('a failed fdatasync fails every write it covered and counts none of them durable', async (t) => {
  const sync = heldSync();
  const store = new SqliteStore({ path: join(dir, `s${n++}.db`), syncFile: sync.syncFile });
  t.teardown(() => store.close());
  const writes = Array.from({ length: 10 }, (_, i) => append(store, i));
  await turns(5);
  const eio = Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
  sync.release(eio);
  const results = await Promise.allSettled(writes);
  t.ok(
    results.every((r) => r.status === 'rejected' && (r.reason as Error).message.includes('EIO')),
    'all ten rejected with the I/O error',
  );
  t.equal(await store.auditSize(), 0, 'no checkpoint may cover them');
});

t.test(
  'a write that throws rolls back alone: the rest of its batch commits, the log stays gap-free',
  async (t) => {
    const store = new SqliteStore({ path: join(dir, `s${n++}.db`) });
    t.teardown(() => store.close());
    const builder = (i: number) =>
      AuditLog.builder({ type: 'tenant', actor: 'test', data: { i } }, 1_700_000_000_000);
    const ok = (i: number) => store.runWrite(({ appendAudit }) => appendAudit(builder(i)).index);
    const failing = store.runWrite(({ appendAudit }) => {
      appendAudit(builder(99)); // written, then the write fails: nothing of it may stay
      throw new Error('refused after writing');
    });
    // queued in one turn: one batch
    const results = await Promise.allSettled([ok(0), ok(1), failing, ok(2)]);
    t.same(
      results.map((r) => r.status),
      ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
    );
    t.match(
      (results[2] as PromiseRejectedResult).reason,
      { message: 'refused after writing' },
      'its own error',
    );
    t.same(
      results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])),
      [0, 1, 2],
      'the failed write took no index',
    );
    t.equal(await store.auditSize(), 3);
    const entries = await store.auditEntries(0, 3);
    t.same(
      entries.map((e) => (e.entry.data as { i: number }).i),
      [0, 1, 2],
      "the failed write's entry is not in the log",
    );
  },
);

t.test(
  'a write answered before a crash is on disk after it (child process killed with SIGKILL)',
  async (t) => {
    const path = join(dir, `s${n++}.db`);
    const { spawn } = await import('node:child_process');
    const storeUrl = new URL('../../src/store/sqlite-store.ts', import.meta.url).href;
    const logUrl = new URL('../../src/audit/audit-log.ts', import.meta.url).href;
    // the child appends with 64 writes in flight and prints each index once its promise resolves
    const script = `
    const { SqliteStore } = await import(${JSON.stringify(storeUrl)});
    const { AuditLog } = await import(${JSON.stringify(logUrl)});
    const store = new SqliteStore({ path: ${JSON.stringify(path)} });
    let i = 0;
    const one = () => store.appendAudit(AuditLog.builder({ type: 'tenant', actor: 'crash', data: { i: i++ } }, 1))
      .then((r) => { process.stdout.write(r.index + '\\n'); one(); });
    for (let k = 0; k < 64; k++) one();
  `;
    const child = spawn(process.execPath, [...process.execArgv, '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const answered: number[] = [];
    let buffered = '';
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        for (const line of lines) answered.push(Number(line));
        if (answered.length >= 500 && !child.killed) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () => resolve());
    });
    await new Promise((resolve) =>
      child.exitCode !== null || child.signalCode ? resolve(0) : child.on('exit', resolve),
    );
    t.ok(answered.length >= 500, `the child answered ${answered.length} writes before it was killed`);
    const reopened = new SqliteStore({ path });
    t.teardown(() => reopened.close());
    const size = await reopened.auditSize();
    const missing = answered.filter((i) => i >= size);
    t.same(missing, [], `every answered index is below the reopened size ${size}`);
    const entries = await reopened.auditEntries(0, size);
    t.ok(
      entries.every((e, i) => e.index === i),
      'the reopened log is contiguous from 0',
    );
  },
);
