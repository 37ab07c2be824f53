/**
 * `--cloud 127.0.0.1:8080` (no scheme) is the usual slip with the commands that reach the cloud: it is
 * bad usage (exit 2) naming the URL to type, before any file is read or anything is sent, not an
 * "unreachable cloud" (exit 1) with fetch's "Failed to parse URL". Plain http to a host that is not loopback
 * is refused too (operator keys, consent tokens and the edge key cross that link), unless
 * --cloud-insecure-http says the network is trusted.
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

t.test('plain http to a host that is not loopback needs --cloud-insecure-http', async (t) => {
  const dir = t.testdir();
  const keyFile = join(dir, 'operator.api-key');
  writeFileSync(keyFile, 'pgk_x\n', { mode: 0o600 });
  const pending = (url: string, ...more: string[]) =>
    cli(['consent', 'pending', '--cloud', url, '--cloud-key-file', keyFile, ...more]);
  const ship = (url: string) =>
    cli(['edge', 'ship', '--cloud', url, '--cloud-key-file', keyFile, '--robot', 'r1', '--state-dir', dir]);
  for (const run of [pending, ship]) {
    const refused = await run('http://cloud.invalid:8080');
    t.equal(refused.code, 2, refused.err);
    t.match(refused.err, /is plain http to a host that is not loopback/);
  }
  // loopback, https, or the option: no usage error (the cloud is not there: exit 1)
  for (const url of [
    'http://127.0.0.1:9',
    'http://localhost:9',
    'http://[::1]:9',
    'https://cloud.invalid:8080',
  ]) {
    const r = await pending(url);
    t.equal(r.code, 1, `${url}: ${r.err}`);
  }
  const allowed = await pending('http://cloud.invalid:8080', '--cloud-insecure-http');
  t.equal(allowed.code, 1, `with the option: ${allowed.err}`);
  const slip = await pending('cloud.example:8080');
  t.match(slip.err, /did you mean https:\/\/cloud\.example:8080\?/, 'the hint for another host is https');
});
