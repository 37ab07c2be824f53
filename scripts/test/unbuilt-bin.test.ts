// Right after `npm ci` nothing is built; `npx pentagate --help` (the root README's "Other commands") must then say
// to run `npm run build`, in one line and exit 2, not end in a module-resolution stack trace.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { repoRoot } from './cli-registry.js';

t.test('the bin of an unbuilt checkout says to build it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pentagate-unbuilt-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(join(repoRoot, 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(join(repoRoot, 'package.json'), join(dir, 'package.json'));
  // each package as npm ci links it: its package.json, no dist/
  for (const name of ['protocol', 'crypto', 'verifier', 'edge', 'cloud', 'simulator']) {
    const pkg = join(dir, 'node_modules', '@pentagate', name);
    mkdirSync(pkg, { recursive: true });
    const exports = { '.': './dist/index.js', './commands': './dist/commands.js' };
    writeFileSync(
      join(pkg, 'package.json'),
      JSON.stringify({ name: `@pentagate/${name}`, type: 'module', exports }),
    );
  }
  const { code, stderr } = await new Promise<{ code: number; stderr: string }>((resolve) => {
    // no --conditions=pentagate-source: the bin as a user runs it
    execFile(
      process.execPath,
      [join(dir, 'bin', 'pentagate.js'), '--help'],
      { env: {} },
      (err, _out, stderr) => resolve({ code: typeof err?.code === 'number' ? err.code : 0, stderr }),
    );
  });
  t.equal(code, 2);
  t.match(stderr, /^pentagate: the packages are not built \(.*\)\.\nRun `npm run build` first\.\n$/);
  t.notMatch(stderr, /\n\s+at /, 'no stack trace');
});
