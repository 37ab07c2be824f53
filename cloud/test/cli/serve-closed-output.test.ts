/**
 * `pentagate cloud serve 2>&1 | tee cloud.log` and Ctrl-C: the terminal's SIGINT ends `tee` too, so every
 * line the cloud writes while it stops fails with EPIPE. The real bin in a child process: the cloud still
 * drains and closes its store (SQLite folds its write-ahead log back into the database file on a clean
 * close), and exits 0, instead of dying at its first line to nobody.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';

const bin = join(import.meta.dirname, '..', '..', '..', 'bin', 'pentagate.js');

t.test('a cloud whose output reader went away still stops cleanly on Ctrl-C', async (t) => {
  const stateDir = t.testdir();
  const child = spawn(process.execPath, [bin, 'cloud', 'serve', '--port', '0', '--state-dir', stateDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', () => {
      if (err.includes('listening on http')) resolve();
    });
    child.on('exit', () => reject(new Error(`the cloud exited before listening: ${err}`)));
  });
  t.ok(existsSync(join(stateDir, 'cloud.db-wal')), 'the running store has its write-ahead log');
  child.stdout.destroy();
  child.stderr.destroy();
  child.kill('SIGINT');
  const [code, signal] = await exited;
  t.equal(signal, null);
  t.equal(code, 0, 'stopped cleanly, not of an EPIPE');
  t.notOk(existsSync(join(stateDir, 'cloud.db-wal')), 'the store was closed');
});
