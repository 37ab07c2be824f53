/**
 * One process per edge state directory (src/node/state-dir-lock.ts): a second `edge run` on a directory another
 * process serves from is refused before it opens anything (exit 2, naming the holder), and so is `edge ship`;
 * the first keeps serving. A process killed without releasing leaves a lock that a restart on the same host
 * takes over at once (its first STOP must not wait LOCK_STALE_MS); a lock of another host is refused until it
 * is stale. A running edge whose lock is taken over stops by itself
 * (`mustStop`), since it can no longer know it is alone with the directory's sequence, nonces and outbox.
 */
import { spawn } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, rmdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startEdgeRun } from '../../src/cli/edge-run.js';
import { edgeRunOptions } from '../../src/cli/edge-run-command.js';
import { LOCK_NAME, LOCK_STALE_MS, lockStateDir } from '../../src/node/state-dir-lock.js';
import { startEdgeCli } from './helpers/edge-cli-process.js';
import { tempEdgeRunFiles } from './helpers/edge-run-files.js';
import { cli } from './helpers/run-edge-cli.js';

const files = (t: { teardown(fn: () => unknown): void }) => tempEdgeRunFiles(t, 'pentagate-lock-');

t.test('a second edge run on a served state directory is refused; the first keeps serving', async (t) => {
  const f = await files(t);
  const stateDir = join(f.dir, 'state');
  const args = [
    ...['--profile', f.profile, '--hmac-key', f.hmacKey, '--mqtt', 'embedded:0'],
    ...['--firmware', f.firmware, '--state-dir', stateDir, '--log-level', 'silent'],
  ];
  const first = await startEdgeCli(t, args);
  const second = await cli(['edge', 'run', ...args]);
  t.equal(second.code, 2, 'refused as a usage error');
  t.match(second.err, /state directory .*state is in use by another process \(`edge run`, pid \d+ on /);
  t.match(second.err, /spent consent nonces and audit outbox/, 'saying why it matters');
  t.match(second.err, /give this one its own --state-dir/, 'and what to do');
  t.equal(first.child.exitCode, null, 'the first still runs');

  const cloudKey = join(f.dir, 'edge.api-key');
  await writeFile(cloudKey, 'pgk_edge_key_for_the_test\n', { mode: 0o600 });
  const ship = await cli([
    ...['edge', 'ship', '--state-dir', stateDir, '--robot', 'r1'],
    ...['--cloud', 'http://127.0.0.1:9', '--cloud-key-file', cloudKey],
  ]);
  t.equal(ship.code, 2, 'edge ship is refused while the edge runs');
  t.match(ship.err, /is in use by another process \(`edge run`/, ship.err);

  t.equal(await first.stop(), 0, 'the first stops cleanly');
  const again = await startEdgeCli(t, args);
  t.pass('and once it has, the directory serves a new edge at once');
  t.equal(await again.stop(), 0);
});

t.test(
  "a lock left by a killed process of this host is taken over at once; another host's is refused",
  async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'pentagate-lock-'));
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    // A process that takes the lock and is then killed: it neither releases nor refreshes it.
    const holder = spawn(
      process.execPath,
      [
        '--conditions=pentagate-source',
        '--import=@tapjs/typescript/import',
        '--input-type=module',
        '-e',
        `import { lockStateDir } from ${JSON.stringify(join(import.meta.dirname, '../../src/node/state-dir-lock.ts'))};
       await lockStateDir(${JSON.stringify(dir)}, { purpose: 'edge run', onLost: () => {} });
       process.stdout.write('locked\\n');
       setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    t.teardown(() => holder.kill('SIGKILL'));
    await new Promise<void>((resolve, reject) => {
      holder.stdout?.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
      holder.on('exit', (code) => reject(new Error(`holder exited ${code}`)));
    });
    const attempt = () =>
      lockStateDir(dir, { purpose: 'test', onLost: () => {} }).then(
        async (lock) => {
          await lock.release();
          return 'acquired';
        },
        (err: Error) => err.message,
      );
    t.match(
      await attempt(),
      /is in use by another process \(`edge run`, pid \d+/,
      'refused while the holder lives',
    );
    holder.kill('SIGKILL');
    await new Promise((r) => holder.once('exit', r));
    t.ok(statSync(join(dir, LOCK_NAME)).isDirectory(), 'the killed holder left its lock behind');
    const started = Date.now();
    t.equal(await attempt(), 'acquired', 'a process of the same host takes it over');
    t.ok(
      Date.now() - started < LOCK_STALE_MS / 2,
      `at once (${Date.now() - started} ms), not after it goes stale`,
    );

    // A fresh lock whose owner record names another host (a container sharing the directory) is refused.
    await mkdir(join(dir, LOCK_NAME));
    writeFileSync(
      join(dir, 'edge.lock.owner'),
      JSON.stringify({
        pid: 1,
        hostname: 'another-host',
        purpose: 'edge run',
        since: new Date().toISOString(),
      }),
    );
    t.match(
      await attempt(),
      /in use by another process \(`edge run`, pid 1 on another-host/,
      "another host's lock",
    );
  },
);

t.test('an edge whose lock is taken over stops by itself', async (t) => {
  const f = await files(t);
  const stateDir = join(f.dir, 'state');
  const options = await edgeRunOptions({
    options: {
      profile: f.profile,
      'hmac-key': f.hmacKey,
      mqtt: 'embedded:0',
      'state-dir': stateDir,
      firmware: [f.firmware],
      'log-level': 'silent',
    },
    positionals: [],
  });
  const started = await startEdgeRun(options);
  t.teardown(() => started.stop());
  // Another process takes the directory over (as if the lock had gone stale): the lock is replaced.
  await rmdir(join(stateDir, LOCK_NAME));
  await mkdir(join(stateDir, LOCK_NAME));
  const reason = await started.mustStop;
  t.match(reason, /the lock of state directory .* was lost/, 'the edge is told to stop');
  await started.stop(reason);
  const after = await lockStateDir(stateDir, { purpose: 'test', onLost: () => {} }).then(
    async (lock) => {
      await lock.release();
      return 'acquired';
    },
    (err: Error) => err.message,
  );
  t.match(
    after,
    /is in use by another process/,
    'its stop left the lock it no longer held to its new holder',
  );
});
