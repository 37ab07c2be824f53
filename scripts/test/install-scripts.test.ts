// npm 11 runs a dependency's install scripts only when the root package.json's "allowScripts" says so, and
// `npm ci` warns about every package with such scripts that it does not mention: the quick start's first
// command would end in a warning a newcomer cannot act on. The lock records which packages have them
// ("hasInstallScript"), so the check needs no network.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';

const root = join(import.meta.dirname, '..', '..');
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));

t.test('every locked package with install scripts is allowed or denied in allowScripts', async (t) => {
  const decided = new Set(Object.keys(rootManifest.allowScripts ?? {}));
  const undecided: string[] = [];
  for (const [path, entry] of Object.entries<{ hasInstallScript?: boolean }>(lock.packages)) {
    if (!entry.hasInstallScript) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (!decided.has(name)) undecided.push(name);
  }
  t.same(undecided, [], 'packages npm ci would warn about');
});
