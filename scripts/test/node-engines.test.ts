// The root package.json promises Node 20 ("engines"); every package the lock file installs must
// accept it too, or `npm ci` warns (EBADENGINE) on a supported Node. The lock records each
// package's own "engines" field, so the check needs no network.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import t from 'tap';

const root = join(import.meta.dirname, '..', '..');
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const oldestSupported = semver.minVersion(rootManifest.engines.node)?.version;

t.test('every locked package accepts the oldest Node the project supports', async (t) => {
  t.ok(oldestSupported, 'the root engines field names a Node version');
  const refusing: string[] = [];
  for (const [path, entry] of Object.entries<{ version?: string; engines?: { node?: string } }>(
    lock.packages,
  )) {
    const range = entry.engines?.node;
    if (!range || !oldestSupported) continue;
    if (!semver.satisfies(oldestSupported, range)) refusing.push(`${path}@${entry.version} (node ${range})`);
  }
  t.same(refusing, [], `packages refusing Node ${oldestSupported}`);
});
