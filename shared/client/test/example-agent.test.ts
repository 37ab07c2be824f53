/**
 * The README's example agent (examples/agent.mjs) is the first thing an agent builder runs: a setting it cannot
 * use is one line on stderr naming the variable, and exit 2, not a stack trace.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import t from 'tap';

const AGENT = join(import.meta.dirname, '../examples/agent.mjs');

function runAgent(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [AGENT], { env: { PATH: process.env.PATH, ...env } }, (err, _out, stderr) =>
      resolve({ code: typeof err?.code === 'number' ? err.code : 0, stderr }),
    );
  });
}

t.test('a PENTAGATE_URL that is not a URL is named, with exit 2 and no stack', async (t) => {
  const { code, stderr } = await runAgent({
    PENTAGATE_URL: 'notaurl',
    PENTAGATE_API_KEY: `pgk_${'A'.repeat(43)}`,
  });
  t.equal(code, 2);
  t.match(stderr, /^PENTAGATE_URL: expected an http\(s\) URL .*"notaurl"/);
  t.notMatch(stderr, /\n\s+at /, 'no stack trace');
  t.equal(stderr.trim().split('\n').length, 1, stderr);
});

t.test('a missing PENTAGATE_API_KEY says how to get one, with exit 2', async (t) => {
  const { code, stderr } = await runAgent({});
  t.equal(code, 2);
  t.match(stderr, /set PENTAGATE_API_KEY/);
});
