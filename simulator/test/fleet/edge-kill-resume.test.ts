/**
 * The edge's uplink killed with SIGKILL in the middle of an upload (`pentagate edge ship`, the edge's
 * shipping code in a process of its own, against a real cloud on a real port): started again, it asks the
 * cloud where the robot's chain ends and resumes there — the batches it sends cover only what the cloud
 * lacks — and in the end every record is stored once, in order.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFleetStore } from '@pentagate/cloud';
import { AuditOutbox } from '@pentagate/edge/commands';
import t from 'tap';
import { PENTAGATE_BIN } from '../../src/edge/edge-process.js';
import { fleetCloud } from './fleet-helpers.js';

const ROBOT = 'arm-kill';
const RECORDS = 3000;

t.setTimeout(400_000);

t.test(
  'an uplink killed mid-upload resumes where the cloud acknowledged, storing each record once',
  async (t) => {
    const cloud = await fleetCloud(t, ROBOT);
    const dir = mkdtempSync(join(tmpdir(), 'pentagate-edge-kill-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const stateDir = join(dir, 'edge');
    const outbox = await AuditOutbox.open(join(stateDir, 'outbox.jsonl'));
    const appends: Promise<unknown>[] = [];
    for (let i = 0; i < RECORDS; i++) {
      appends.push(
        outbox.append({
          v: 1,
          robotId: ROBOT,
          outcome: 'vetoed',
          atMs: 1_700_000_000_000 + i,
          violations: [],
          gates: [],
        }),
      );
    }
    await Promise.all(appends);
    await outbox.close();
    const keyFile = join(dir, 'edge-key');
    writeFileSync(keyFile, `${cloud.edgeKey}\n`, { mode: 0o600 });
    const fleet = await openFleetStore(cloud.store!);
    const ship = () =>
      spawn(
        process.execPath,
        [
          PENTAGATE_BIN,
          'edge',
          'ship',
          '--state-dir',
          stateDir,
          '--robot',
          ROBOT,
          '--cloud',
          cloud.url,
          '--cloud-key-file',
          keyFile,
          '--json',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
    const acknowledged = async () => (await fleet.chainState(cloud.tenantId, ROBOT)).acknowledged;

    const first = ship();
    const firstExit = once(first, 'exit');
    while ((await acknowledged()) < 200) await new Promise((r) => setTimeout(r, 5));
    first.kill('SIGKILL');
    await firstExit;
    const atKill = await acknowledged();
    t.ok(atKill > 0 && atKill < RECORDS, `killed mid-upload: the cloud held ${atKill} of ${RECORDS}`);

    const requests = async () => {
      const text = await (await fetch(`${cloud.url}/metrics`)).text();
      const line = text
        .split('\n')
        .find((l) =>
          l.startsWith(
            'pentagate_http_requests_total{route="/api/v1/fleet/robots/:robotId/records",method="POST",status="200"}',
          ),
        );
      return Number(line?.split(' ').at(-1) ?? 0);
    };
    const before = await requests();
    const second = ship();
    let out = '';
    second.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    const [code] = await once(second, 'exit');
    t.equal(code, 0, out);
    t.same(JSON.parse(out.trim()), { robotId: ROBOT, records: RECORDS, acknowledged: RECORDS });
    const sent = (await requests()) - before;
    t.ok(
      sent <= Math.ceil((RECORDS - atKill) / 100) + 1,
      `the restarted uplink sent ${sent} batches for the ${RECORDS - atKill} records the cloud lacked`,
    );
    const entries = await cloud.store!.auditEntries(0, await cloud.store!.auditSize());
    const indexes = entries
      .filter((e) => e.entry.type === 'edge.verdict')
      .map((e) => (e.entry.data.record as { index: number }).index);
    t.same(
      indexes,
      Array.from({ length: RECORDS }, (_, i) => i),
      'every record once, in order',
    );
  },
);
