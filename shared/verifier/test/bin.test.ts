/**
 * The real `pentagate` bin in a child process: the subcommand list and the exit code of unreadable input.
 * The bin loads the built packages (dist/); when they are not built this test skips and says why.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const run = (...args: string[]) =>
  spawnSync(process.execPath, ['bin/pentagate.js', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });

const probe = run('verify', '--help');
const built = !(probe.status === 2 && /not built/.test(probe.stderr));

t.test(
  '`pentagate verify --help` lists the eight subcommands',
  { skip: built ? false : 'run `npm run build` first' },
  async (t) => {
    t.equal(probe.status, 0, probe.stderr);
    for (const sub of [
      'proof',
      'token',
      'checkpoint',
      'inclusion',
      'consistency',
      'kit',
      'command',
      'consent',
    ]) {
      t.match(probe.stdout, new RegExp(`\\n  verify ${sub} +\\S`), sub);
    }
  },
);

t.test(
  'a missing file exits 2 with one line and no stack trace',
  { skip: built ? false : 'not built' },
  async (t) => {
    const r = run('verify', 'proof', 'no-such-packet.json', '--trust', 'no-such-trust.json');
    t.equal(r.status, 2);
    t.equal(r.stdout, '');
    t.match(
      r.stderr,
      /^pentagate verify proof: trust file no-such-trust\.json: cannot read it \(no such file\)\n$/,
    );
  },
);

t.test(
  'a reader that closes the pipe early (`| head`) ends the command quietly, without an EPIPE stack',
  { skip: built ? false : 'not built' },
  async (t) => {
    const child = spawn(process.execPath, ['bin/pentagate.js', '--help'], { cwd: root });
    // closed before the bin has loaded its commands, so its first write finds no reader
    child.stdout.destroy();
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    t.equal(code, 0);
    t.equal(err, '', 'nothing on stderr');
  },
);
