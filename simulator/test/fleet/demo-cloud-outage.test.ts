/**
 * The demo's processes end to end — `pentagate demo` runs the cloud (`cloud serve`), the edge (`edge run`
 * with its embedded broker and `--cloud`) and the simulated robot as real processes over real sockets —
 * with the cloud killed (SIGKILL) mid-run and restarted: the robot keeps working, and at the end every
 * record of the edge's outbox is in the exported audit kit, which verifies with the robot's chain unbroken
 * and its signed commands without holes (seq and epoch continuity).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TrustStore } from '@pentagate/crypto';
import { verifyAuditKit } from '@pentagate/verifier';
import t from 'tap';
import { PENTAGATE_BIN } from '../../src/edge/edge-process.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

// Eight `pentagate` processes start, run and stop: on the project's shared 2-CPU machine under heavy load one
// cold start took 25 s, so the file gets far more than tap's default.
t.setTimeout(600_000);

t.test('the demo survives a cloud crash and its kit holds every edge record, without holes', async (t) => {
  // built packages, checked on disk: asking a cold CLI for --help can outlast a timeout on a loaded machine
  const built = ['edge', 'cloud', 'simulator'].every((p) =>
    existsSync(join(import.meta.dirname, `../../../${p}/dist/commands.js`)),
  );
  if (!built) {
    if (process.env.CI) t.fail('the packages are not built (npm run build)');
    else t.skip('the packages are not built (npm run build)', () => {});
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-demo-outage-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const kitDir = join(dir, 'kit');
  const args = ['demo', '--duration', '12', '--cloud-outage', '3', '--cloud-outage-at', '3'];
  args.push('--mqtt-port', String(await freePort()), '--kit-dir', kitDir);
  const out = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, [PENTAGATE_BIN, ...args], { timeout: 560_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stdout}\n${stderr}`)) : resolve(stdout),
    );
  });
  t.match(out, /Pentagate cloud on http:\/\/127\.0\.0\.1:\d+/, 'the demo prints the cloud URL');
  t.match(out, /curl -N -H "Authorization: Bearer pgk_/, 'and how to watch the live view');
  t.match(out, /cloud: killed \(SIGKILL\) for 3 s/);
  t.match(out, /cloud: back on/);
  const held = /the cloud holds (\d+) of the edge's (\d+) audit records/.exec(out);
  t.ok(held, out);
  const [, acknowledged, records] = held ?? [];
  t.equal(acknowledged, records, 'the cloud holds every record the edge wrote');
  t.ok(Number(records) > 5, `the robot kept working (${records} records)`);
  t.match(out, new RegExp(`Audit kit \\(\\d+ entries\\): ${kitDir.replace(/[/.]/g, '\\$&')}`));

  t.match(out, `check it: npx pentagate verify kit ${kitDir} --trust ${kitDir}-trust.json`);
  const trust = TrustStore.fromDocument(JSON.parse(await readFile(`${kitDir}-trust.json`, 'utf8')), 'trust');
  const report = await verifyAuditKit(kitDir, { trust });
  t.equal(report.valid, true, report.failures.join('\n'));
  const history = report.checks.find((c) => c.name === 'robot history ur5e-01');
  t.ok(history?.ok, 'the robot history check passed');
  t.match(history?.detail, `records 0..${Number(records) - 1} chained`);
  t.match(history?.detail, /no holes/);
  const entries = (await readFile(join(kitDir, 'entries.jsonl'), 'utf8')).trim().split('\n');
  const shipped = entries
    .map((line) => JSON.parse(line) as { type: string; data: { record?: { index: number } } })
    .filter((e) => e.type === 'edge.verdict')
    .map((e) => e.data.record?.index);
  t.same(
    shipped,
    Array.from({ length: Number(records) }, (_, i) => i),
    'each record once, in order',
  );
});
