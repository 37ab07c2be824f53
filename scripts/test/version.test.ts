// `pentagate --version`, run as a user runs it: the root bin in a child process, against the root
// package.json it belongs to.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { repoRoot } from './cli-registry.js';

const run = promisify(execFile);
// Loading every package's commands from their TypeScript sources (cli-registry.js) took 47 s of a loaded CI
// run: room beyond tap's default per-file timeout.
t.setTimeout(240_000);

t.test('pentagate --version prints the version of its package.json and exits 0', async (t) => {
  const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  t.match(version, /^\d+\.\d+\.\d+/);
  for (const flag of ['--version', '-V']) {
    const { stdout, stderr } = await run(process.execPath, [join(repoRoot, 'bin/pentagate.js'), flag]);
    t.equal(stdout, `pentagate ${version}\n`, flag);
    t.equal(stderr, '');
  }
});
