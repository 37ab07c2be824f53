/**
 * `--cloud 127.0.0.1:8080` (no scheme) is the usual slip with the commands that reach the cloud: it is
 * bad usage (exit 2) naming the URL to type, before any file is read or anything is sent, not an
 * "unreachable cloud" (exit 1) with fetch's "Failed to parse URL".
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '@pentagate/protocol';
import t from 'tap';
import { commands } from '../../src/commands.js';

async function cli(argv: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  const code = await runCli(argv, commands, { out: () => {}, err: (s) => (err += `${s}\n`) });
  return { code, err };
}

t.test('a --cloud without http:// is refused as usage, with the fix named', async (t) => {
  const keyFile = join(t.testdir(), 'operator.api-key');
  writeFileSync(keyFile, 'pgk_x\n', { mode: 0o600 });
  const digest = 'a'.repeat(64);
  const runs: [string, string[]][] = [
    ['consent pending', ['consent', 'pending', '--cloud', '127.0.0.1:8080', '--cloud-key-file', keyFile]],
    [
      'consent grant',
      [
        'consent',
        'grant',
        '--cloud',
        'localhost:8080',
        '--cloud-key-file',
        keyFile,
        '--robot',
        'r1',
        '--intent-digest',
        digest,
        '--key',
        keyFile,
        '--operator',
        'o',
      ],
    ],
    [
      'edge ship',
      [
        'edge',
        'ship',
        '--cloud',
        '127.0.0.1:8080',
        '--cloud-key-file',
        keyFile,
        '--robot',
        'r1',
        '--state-dir',
        t.testdir(),
      ],
    ],
  ];
  for (const [name, argv] of runs) {
    const r = await cli(argv);
    t.equal(r.code, 2, `${name}: ${r.err}`);
    t.match(
      r.err,
      /--cloud: expected the cloud's http:\/\/ or https:\/\/ URL, got "[^"]+"; did you mean http:\/\/\S+:8080\?/,
      name,
    );
  }
  const other = await cli([
    'consent',
    'pending',
    '--cloud',
    'ftp://cloud.example',
    '--cloud-key-file',
    keyFile,
  ]);
  t.equal(other.code, 2);
  t.notMatch(other.err, /did you mean/, 'no guess for a URL of another scheme');
});
