// The closing line CI reads ("N passed, N failed") must never say 0 failed when a file failed:
// not for a failing leaf, not for a file that crashed before its plan, not for one the runner killed
// at its timeout after every point so far had passed, and not when tap itself exited non-zero.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';

const script = join(import.meta.dirname, '..', 'tap-summary.mjs');

function summarise(files: Record<string, string>, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'pg-summary-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      const path = join(dir, '.tap', 'test-results', name);
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, text);
    }
    const run = spawnSync(process.execPath, [script], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, TAP_EXIT_CODE: '0', ...env },
    });
    const lines = run.stdout.trim().split('\n');
    return { status: run.status, last: lines.at(-1), lines };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const finishedFile =
  'TAP version 14\n# Subtest: a\n    ok 1 - one\n    ok 2 - two\n    1..2\nok 1 - a\n\n1..1\n# time=12ms\n';

t.test('leaves are counted; the subtest closing point is not', async (t) => {
  const r = summarise({ 'a.test.ts.tap': finishedFile });
  t.equal(r.last, '2 passed, 0 failed');
  t.equal(r.status, 0);
});

t.test('a failing leaf is one failure', async (t) => {
  const text = finishedFile.replace('ok 2 - two', 'not ok 2 - two').replace('ok 1 - a', 'not ok 1 - a');
  const r = summarise({ 'a.test.ts.tap': text });
  t.equal(r.last, '1 passed, 1 failed');
  t.equal(r.status, 1);
});

t.test('a file killed after its points passed (no closing time line) is one failure, named', async (t) => {
  const killed = finishedFile.replace('# time=12ms\n', '');
  const r = summarise({ 'a.test.ts.tap': finishedFile, 'b.test.ts.tap': killed });
  t.equal(r.last, '4 passed, 1 failed');
  t.match(r.lines.join('\n'), /b\.test\.ts\.tap/);
  t.equal(r.status, 1);
});

t.test('a file that crashed before its plan is one failure', async (t) => {
  const r = summarise({ 'c.test.ts.tap': 'TAP version 14\nnot ok 1 - test unfinished\n1..1\n# time=3ms\n' });
  t.equal(r.last, '0 passed, 1 failed');
});

t.test('tap exiting non-zero with nothing failed in the saved results still fails', async (t) => {
  const r = summarise({ 'a.test.ts.tap': finishedFile }, { TAP_EXIT_CODE: '1' });
  t.equal(r.last, '2 passed, 1 failed');
  t.equal(r.status, 1);
});

t.test('no saved results at all is a failure', async (t) => {
  const r = summarise({});
  t.match(r.last ?? '', /failed/);
  t.not(r.last, '0 passed, 0 failed');
});
