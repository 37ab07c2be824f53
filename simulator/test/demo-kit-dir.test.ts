/**
 * `demo --kit-dir` that already holds files is refused before the demo starts (exit 2), not after the whole run
 * when the export at the end meets it (exit 1, "the edge or the cloud failed").
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@pentagate/protocol';
import t from 'tap';
import { commands } from '../src/commands.js';
import { freePort } from '../src/runner/robot-cell.js';

t.setTimeout(300_000);

t.test('a --kit-dir holding files is refused at once', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-kit-dir-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'old.txt'), 'x');
  let out = '';
  let err = '';
  const io = { out: (s: string) => (out += `${s}\n`), err: (s: string) => (err += `${s}\n`) };
  const argv = ['demo', '--kit-dir', dir, '--duration', '1', '--mqtt-port', String(await freePort())];
  t.equal(await runCli(argv, commands, io), 2);
  t.match(err, /--kit-dir: expected an empty or new directory, got .* holding 1 file\(s\)/);
  t.notMatch(out, /preparing robot/, 'the demo did not start');
});
