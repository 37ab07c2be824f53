/**
 * `sim run --report FILE` replaces an earlier report of its own, but a file that is anything else (a typo, a
 * document of the user's) is refused before a scenario runs: exit 2, the file untouched. So is a path whose
 * directory does not exist, instead of failing after every scenario has run.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@pentagate/protocol';
import t from 'tap';
import { commands } from '../src/commands.js';
import { renderHtmlReport } from '../src/report/html-report.js';
import { checkReportTarget } from '../src/report/report-target.js';

const SCENARIO = join(import.meta.dirname, '../scenarios/torque-limit.yaml');

async function simRun(report: string): Promise<{ code: number; err: string }> {
  let err = '';
  const io = { out: () => {}, err: (s: string) => (err += `${s}\n`) };
  return { code: await runCli(['sim', 'run', SCENARIO, '--report', report], commands, io), err };
}

t.test('a --report path that is not a report is refused before anything runs', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-report-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const notes = join(dir, 'notes.txt');
  await writeFile(notes, 'my notes\n');
  const refused = await simRun(notes);
  t.equal(refused.code, 2);
  t.match(
    refused.err,
    /--report: .*notes\.txt exists and is not a Pentagate simulator report; refusing to overwrite it/,
  );
  t.notMatch(refused.err, /\[1\/1\]/, 'no scenario ran');
  t.equal(await readFile(notes, 'utf8'), 'my notes\n', 'the file is untouched');

  const nowhere = await simRun(join(dir, 'missing', 'sim.html'));
  t.equal(nowhere.code, 2);
  t.match(nowhere.err, /--report: the directory .*missing does not exist/);
  t.notMatch(nowhere.err, /\[1\/1\]/, 'no scenario ran');
});

t.test('an earlier report, and a new file in an existing directory, may be written', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-report-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const earlier = join(dir, 'sim.html');
  await writeFile(earlier, renderHtmlReport([]));
  await t.resolves(checkReportTarget(earlier));
  await t.resolves(checkReportTarget(join(dir, 'new.html')));
  await t.rejects(checkReportTarget(dir), /exists and is not a Pentagate simulator report/, 'a directory');
});
