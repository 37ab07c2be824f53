/**
 * `edge replay` on a profile whose proximity source is authenticated: without the sensor key it refuses to
 * start (one line, exit 2), as `edge run` does; with it, the recording's unsigned proximity frames are refused
 * as unauthenticated, so no motion is signed on them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hmacKeyId, writeHmacKeyFile } from '@pentagate/crypto';
import t from 'tap';
import { cli } from '../runtime/helpers/run-edge-cli.js';

const cell = join(import.meta.dirname, '..', '..', 'samples', 'arm-cell');

t.test('edge replay takes sensor keys for authenticated sources', async (t) => {
  const dir = t.testdir();
  const keyPath = join(dir, 'lidar.key.jwk');
  const key = new Uint8Array(32).fill(7);
  await writeHmacKeyFile(keyPath, key);
  const profile = JSON.parse(readFileSync(join(cell, 'profile.json'), 'utf8'));
  for (const s of profile.sources) {
    if (s.kind === 'proximity') Object.assign(s, { authenticated: true, macKeyId: hmacKeyId(key) });
  }
  const profilePath = join(dir, 'profile.json');
  writeFileSync(profilePath, JSON.stringify(profile));
  const base = ['edge', 'replay', '--profile', profilePath, '--bag', join(cell, 'cell.mcap')];
  const firmware = ['--firmware', join(cell, 'fw.manifest.json')];
  const missing = await cli([...base, ...firmware]);
  t.equal(missing.code, 2);
  t.match(
    missing.err,
    /--sensor-key: source proximity is authenticated by key [0-9a-f]{16}: give its key file/,
  );
  const run = await cli([...base, ...firmware, '--sensor-key', keyPath]);
  t.equal(run.code, 0, run.err);
  t.match(
    run.out,
    /\d+ +unauthenticated \(e\.g\. unauthenticated: proximity: unsigned frame/,
    'unsigned frames refused',
  );
  t.match(run.out, /commands +0 motion/, 'nothing is signed on unauthenticated proximity');
  t.match(run.out, /RISK\.MISSING_DATA: no proximity frame from proximity/);
});
