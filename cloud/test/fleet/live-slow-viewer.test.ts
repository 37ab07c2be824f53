/**
 * A live viewer that stops reading is cut off instead of having the tenant's events buffered for it without
 * bound: with a few such streams open, a busy edge would otherwise grow the cloud's memory until the process
 * failed for every tenant. Over a real socket: the paused viewer gets at most what the network and the
 * stream's bound held, then the end of the stream; a viewer that reads gets everything.
 */
import { connect } from 'node:net';
import { get } from 'node:http';
import type { EdgeAuditRecord } from '@pentagate/protocol';
import t from 'tap';
import { bearer, testCloud } from '../helpers/cloud-app.js';
import { digestOf, GENESIS } from '../helpers/edge-records.js';
import { testRobot } from '../helpers/fleet.js';

/** Chained records whose verdicts each carry 64 violations of 1,000 characters (~64 KB per live event). */
function heavyChain(robotId: string, count: number): EdgeAuditRecord[] {
  const out: EdgeAuditRecord[] = [];
  let prev = GENESIS;
  for (let index = 0; index < count; index++) {
    const violations = Array.from({ length: 64 }, (_, i) => `RISK.TEST: ${String(i).padEnd(989, 'x')}`);
    const record: EdgeAuditRecord = {
      v: 1,
      index,
      appendedAtMs: 1_700_000_000_000 + index,
      prevDigest: prev,
      verdict: { v: 1, robotId, outcome: 'vetoed', atMs: 1_700_000_000_000 + index, violations, gates: [] },
    };
    out.push(record);
    prev = digestOf(record);
  }
  return out;
}

/** Verdict events in a stream's bytes (the raw socket also sees the chunked encoding's size lines). */
const verdicts = (text: string) => text.match(/event: verdict\n/g)?.length ?? 0;

t.test('a viewer that stops reading is cut off; one that reads gets every event', async (t) => {
  const cloud = await testCloud(t);
  const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
  const url = await cloud.app.listen({ port: 0, host: '127.0.0.1' });

  const stalled = connect(Number(new URL(url).port), '127.0.0.1');
  const stalledChunks: Buffer[] = [];
  let stalledEnded = false;
  stalled.on('data', (d) => stalledChunks.push(d));
  stalled.on('error', () => {});
  stalled.on('close', () => {
    stalledEnded = true;
  });
  stalled.write(
    `GET /api/v1/fleet/live HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${cloud.a.keys.operator}\r\n\r\n`,
  );
  const readerChunks: string[] = [];
  const reader = await new Promise<() => void>((resolve, reject) => {
    const req = get(`${url}/api/v1/fleet/live`, { headers: bearer(cloud.a.keys.auditor) }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => readerChunks.push(chunk));
      resolve(() => req.destroy());
    });
    req.on('error', reject);
  });
  t.teardown(() => {
    reader();
    stalled.destroy();
  });
  await new Promise((r) => setTimeout(r, 100));
  stalled.pause(); // the viewer reads nothing more from here on

  const batches = 24;
  const perBatch = 15;
  const chain = heavyChain('arm-1', batches * perBatch);
  for (let b = 0; b < batches; b++) {
    const res = await fetch(`${url}/api/v1/fleet/robots/arm-1/records`, {
      method: 'POST',
      headers: { ...bearer(edgeKey), 'content-type': 'application/json' },
      body: JSON.stringify({ records: chain.slice(b * perBatch, (b + 1) * perBatch) }),
    });
    t.equal(res.status, 200, `batch ${b}`);
  }
  await new Promise((r) => setTimeout(r, 300));
  stalled.resume();
  await new Promise((r) => setTimeout(r, 1000));
  const stalledText = Buffer.concat(stalledChunks).toString('utf8');
  t.ok(stalledEnded, 'the stalled viewer was cut off');
  t.ok(
    verdicts(stalledText) < batches * perBatch,
    `the stalled viewer did not get all ${batches * perBatch} events (${verdicts(stalledText)})`,
  );
  t.equal(verdicts(readerChunks.join('')), batches * perBatch, 'the viewer that reads got every event');
});
