// make-secrets.sh is the deployment's first step: `--help` (or any argument, which it has none of) says what it
// does instead of writing keys and passwords into deploy/secrets/.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import t from 'tap';

const script = join(import.meta.dirname, '..', 'make-secrets.sh');

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', [script, ...args], (err, stdout, stderr) =>
      resolve({ code: typeof err?.code === 'number' ? err.code : 0, stdout, stderr }),
    );
  });
}

t.test('--help prints the usage and writes nothing', async (t) => {
  const { code, stdout } = await run(['--help']);
  t.equal(code, 0);
  t.match(stdout, /^Usage: deploy\/make-secrets\.sh\n/);
  t.notMatch(stdout, /secrets written/);
});

t.test('an argument it does not take is a usage error, exit 2', async (t) => {
  const { code, stdout, stderr } = await run(['--force']);
  t.equal(code, 2);
  t.match(stderr, /make-secrets\.sh: unknown argument "--force"/);
  t.notMatch(stdout, /secrets written/);
});
