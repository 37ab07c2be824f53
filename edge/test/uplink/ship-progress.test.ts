/**
 * `pentagate edge ship` on a backlog says how far it got: where the cloud's copy starts, then every few
 * seconds how many records the cloud holds, on stderr (stdout keeps the one result line, `--json` parseable).
 * A day offline is minutes of uploads, and a command silent that long looks hung. The cloud here is a small
 * real HTTP server answering the two routes shipping uses, each upload of 100 records taking at least
 * 0.8 × SHIP_PROGRESS_MS: the second of the three acknowledgements comes after SHIP_PROGRESS_MS and before
 * the last, however fast the machine (at 0.45 × it came before it on a quiet one, and no line was due).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { AuditOutbox } from '../../src/outbox/audit-outbox.js';
import { edgeShipCommand, SHIP_PROGRESS_MS } from '../../src/uplink/ship-command.js';

const ROBOT = 'arm-1';
const RECORDS = 300;

t.test('a backlog shipped by edge ship reports its progress on stderr', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pentagate-ship-progress-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const outbox = await AuditOutbox.open(join(dir, 'outbox.jsonl'));
  await Promise.all(
    Array.from({ length: RECORDS }, (_, i) =>
      outbox.append({
        v: 1,
        robotId: ROBOT,
        outcome: 'vetoed',
        atMs: 1_800_000_000_000 + i,
        violations: [],
        gates: [],
      }),
    ),
  );
  await outbox.close();
  let held = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const answer = () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ robotId: ROBOT, acknowledged: held, headDigest: 'a'.repeat(64) }));
      };
      if (req.method === 'GET') return answer();
      const records = (JSON.parse(body) as { records: { index: number }[] }).records;
      setTimeout(() => {
        held = records.at(-1)!.index + 1;
        answer();
      }, 0.8 * SHIP_PROGRESS_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const keyFile = join(dir, 'edge-key');
  writeFileSync(keyFile, 'pgk_test\n', { mode: 0o600 });

  const out: string[] = [];
  const err: string[] = [];
  const code = await edgeShipCommand.run(
    {
      options: {
        'state-dir': dir,
        robot: ROBOT,
        cloud: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        'cloud-key-file': keyFile,
        json: true,
      },
      positionals: [],
    },
    { out: (s) => out.push(s), err: (s) => err.push(s) },
  );
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
