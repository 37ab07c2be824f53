/**
 * `pentagate edge ship` on a backlog says how far it got: where the cloud's copy starts, then every few
 * seconds how many records the cloud holds, on stderr (stdout keeps the one result line, `--json` parseable).
 * A day offline is minutes of uploads, and a command silent that long looks hung. The cloud here is a small
 * real HTTP server answering the two routes shipping uses, each upload of 100 records taking at least
 * 0.8 × SHIP_PROGRESS_MS: the second of the three acknowledgements comes after SHIP_PROGRESS_MS and before
 * the last, however fast the machine (at 0.45 × it came before it on a quiet one, and no line was due).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { SHIP_PROGRESS_MS } from '../../src/uplink/ship-command.js';
import { fakeCloud, shipTo, writeVetoOutbox } from './helpers/fake-cloud.js';

const ROBOT = 'arm-1';
const RECORDS = 300;

t.test('a backlog shipped by edge ship reports its progress on stderr', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pentagate-ship-progress-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  await writeVetoOutbox(dir, ROBOT, RECORDS);
  let held = 0;
  const cloud = await fakeCloud(t, async (method, body) => {
    if (method === 'POST') {
      const records = (body as { records: { index: number }[] }).records;
      await new Promise((r) => setTimeout(r, 0.8 * SHIP_PROGRESS_MS));
      held = records.at(-1)!.index + 1;
    }
    return { robotId: ROBOT, acknowledged: held, headDigest: 'a'.repeat(64) };
  });

  const { code, out, err } = await shipTo(dir, ROBOT, cloud, { json: true });
  t.equal(code, 0);
  t.same(
    JSON.parse(out.join('')),
    { robotId: ROBOT, records: RECORDS, acknowledged: RECORDS },
    'stdout: the result',
  );
  t.match(err[0], /the cloud holds 0 of 300 records; shipping 300/, 'first, where shipping starts');
  t.ok(
    err.slice(1).some((line) => /\d+ of 300 records in the cloud \(\d+ records\/s\)/.test(line)),
    'then how far it got while it ships',
  );
});
