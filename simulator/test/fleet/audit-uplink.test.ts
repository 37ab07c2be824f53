/**
 * Store-and-forward between a real audit outbox on disk and a real cloud on a real port: records reach
 * the cloud in order; while the cloud is down the edge keeps appending and /metrics shows the backlog and
 * the link state; after the cloud restarts (same database, same port) the backlog catches up in order with
 * no duplicates, the edge compacts what the cloud acknowledged, and the exported audit kit verifies with
 * the robot's history unbroken.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportAuditKit, serverKeysFromSeed } from '@pentagate/cloud';
import { AuditOutbox, EdgeMetrics, startUplink } from '@pentagate/edge/commands';
import { verifyAuditKit } from '@pentagate/verifier';
import pino from 'pino';
import t from 'tap';
import { fleetCloud, signedVerdict, until } from './fleet-helpers.js';

const ROBOT = 'arm-uplink';

t.test('the outbox reaches the cloud in order across a cloud outage, once each', async (t) => {
  const cloud = await fleetCloud(t, ROBOT);
  const dir = mkdtempSync(join(tmpdir(), 'pentagate-uplink-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const outbox = await AuditOutbox.open(join(dir, 'outbox.jsonl'));
  const metrics = new EdgeMetrics();
  const uplink = startUplink(
    {
      url: cloud.url,
      key: cloud.edgeKey,
      pollMs: 20,
      retryMaxMs: 200,
      batchSize: 16,
      compactAfterRecords: 20,
    },
    { robotId: ROBOT, outbox, metrics, logger: pino({ level: 'silent' }) },
  );
  t.teardown(async () => {
    await uplink.stop();
    await outbox.close();
  });
  let seq = 0;
  for (let i = 0; i < 50; i++) await outbox.append(signedVerdict(ROBOT, ++seq));
  await until('the first 50 records acknowledged', () => uplink.shipper.cloudAcknowledged === 50);
  await until("the outbox cursor to follow the cloud's acknowledgement", () => outbox.acknowledged === 50);
  t.pass("the outbox cursor follows the cloud's acknowledgement");

  await cloud.stop();
  for (let i = 0; i < 30; i++) await outbox.append(signedVerdict(ROBOT, ++seq));
  await until('the link to be seen down', () => uplink.shipper.state === 'down');
  const down = await metrics.registry.metrics();
  t.match(down, /pentagate_edge_uplink_link_state\{state="down"\} 1/, '/metrics shows the link down');
  t.match(down, /pentagate_edge_uplink_backlog_records \d+/);
  t.equal(outbox.count, 80, 'the edge kept recording while the cloud was down');

  await cloud.start();
  await until('the backlog to catch up', () => uplink.shipper.cloudAcknowledged === 80);
  t.match(await metrics.registry.metrics(), /pentagate_edge_uplink_backlog_records 0/);
  t.match(await metrics.registry.metrics(), /pentagate_edge_uplink_link_state\{state="up"\} 1/);
  await until('the outbox to compact what the cloud holds', () => outbox.firstIndex >= 60);
  t.equal(outbox.count, 80, 'compaction keeps the numbering');

  const store = cloud.store!;
  const entries = await store.auditEntries(0, await store.auditSize());
  const indexes = entries
    .filter((e) => e.entry.type === 'edge.verdict')
    .map((e) => (e.entry.data.record as { index: number }).index);
  t.same(
    indexes,
    Array.from({ length: 80 }, (_, i) => i),
    'every record once, in order',
  );

  const keys = serverKeysFromSeed(cloud.seed, 'pentagate.local/audit');
  const kit = await exportAuditKit(store, join(dir, 'kit'), { origin: keys.origin, noteSigner: keys.note });
  // the kit's own keys: this test is about the robot's records in it (the verifier's tests cover trust)
  const report = await verifyAuditKit(kit.dir, { selfAssertedTrust: true });
  t.equal(report.valid, true, report.failures.join('\n'));
  t.match(
    report.checks.find((c) => c.name === `robot history ${ROBOT}`)?.detail,
    'records 0..79 chained, 80 signed commands, seq 1..80 over 1 epoch(s), no holes',
  );
});
