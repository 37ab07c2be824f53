/**
 * `npm run bench -- fleet`: the audit uplink from an edge to a cloud. A real cloud (`pentagate cloud
 * serve` on SQLite, a child process on loopback) and, in this process, a real audit outbox on disk filled
 * with the gate's own verdicts and the uplink shipping it. Measured in the same run: trapAndSign with the
 * link idle, then trapAndSign while the link uploads the backlog (the uplink runs on the same event loop
 * as the gate, between gate calls, as in `edge run`), and the records per second the cloud acknowledged
 * (each record checked against the robot's chain, stored and appended to the audit log, durable on both
 * sides).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addRobot, createTenant, openFleetStore, SqliteStore } from '@pentagate/cloud';
import { AuditOutbox, EdgeMetrics, startUplink } from '@pentagate/edge/commands';
import pino from 'pino';
import { type BenchSuite, LatencyRecorder, nowNs, sectionOf, target } from '../harness/index.js';
import { ur5eCell } from './edge/ur5e-cell.js';

const BIN = fileURLToPath(new URL('../../../bin/pentagate.js', import.meta.url));
/** Gate calls between two turns of the event loop (the uplink runs in those turns). */
const CHUNK = 50;

async function startCloud(
  dir: string,
  robotId: string,
): Promise<{ url: string; key: string; child: ChildProcess }> {
  const db = join(dir, 'cloud.db');
  const store = new SqliteStore({ path: db });
  const tenant = await createTenant(store, 'bench');
  const added = await addRobot(store, await openFleetStore(store), {
    tenantId: tenant.id,
    robotId,
    commandKid: 'bench-cmd',
    profileDigest: 'c'.repeat(64),
  });
  await store.close();
  const child = spawn(
    process.execPath,
    [
      BIN,
      'cloud',
      'serve',
      '--db',
      `sqlite:${db}`,
      '--state-dir',
      dir,
      '--port',
      '0',
      '--rate-limit',
      '100000000',
      '--log-level',
      'silent',
      '--json',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`fleet bench: the cloud exited (${code}) while starting`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
  });
  return { url, key: added.edgeKey.key, child };
}

const suite: BenchSuite = {
  name: 'fleet',
  description:
    'audit uplink: records/s the cloud acknowledges; trapAndSign p99 with the link idle and uploading',
  async run(ctx) {
    const cell = ur5eCell();
    const nowMs = Date.now();
    const gate = cell.makeGate(() => nowMs);
    for (const frame of cell.frames(1, nowMs)) gate.ingestTelemetry(frame, nowMs);
    const intent = cell.trajectory('bench-move');
    const trap = () => {
      const r = gate.trapAndSign(intent, nowMs);
      if (r.kind !== 'signed')
        throw new Error(`fleet bench: trapAndSign stopped signing: ${r.verdict.violations[0]}`);
      return r;
    };
    const chunk = async (recorder: LatencyRecorder) => {
      for (let i = 0; i < CHUNK; i++) {
        const start = nowNs();
        trap();
        recorder.recordSince(start);
      }
      await new Promise((r) => setImmediate(r));
    };

    const dir = await mkdtemp(join(tmpdir(), 'pentagate-bench-fleet-'));
    ctx.log('starting the cloud (pentagate cloud serve)…');
    const cloud = await startCloud(dir, cell.profile.robotId);
    const outbox = await AuditOutbox.open(join(dir, 'outbox.jsonl'));
    try {
      const records = ctx.size(20_000, 400);
      ctx.log(`filling the outbox with ${records} verdicts of the gate…`);
      for (let i = 0; i < records; i += 500) {
        const batch: Promise<unknown>[] = [];
        for (let j = i; j < Math.min(records, i + 500); j++) batch.push(outbox.append(trap().verdict));
        await Promise.all(batch);
      }

      const samples = ctx.size(20_000, 400);
      const idle = new LatencyRecorder('trapAndSign, link idle');
      for (let i = 0; i < 20; i++) await chunk(idle);
      idle.restart();
      while (idle.count < samples) await chunk(idle);

      ctx.log(`uploading ${records} records while timing trapAndSign…`);
      const uploading = new LatencyRecorder('trapAndSign, link uploading');
      const metrics = new EdgeMetrics();
      const startedNs = nowNs();
      const uplink = startUplink(
        { url: cloud.url, key: cloud.key, batchSize: 100, pollMs: 50 },
        { robotId: cell.profile.robotId, outbox, metrics, logger: pino({ level: 'silent' }) },
      );
      const deadline = Date.now() + 15 * 60_000;
      while ((uplink.shipper.cloudAcknowledged ?? 0) < records) {
        if (Date.now() > deadline) throw new Error('fleet bench: the upload did not finish in 15 minutes');
        await chunk(uploading);
      }
      const seconds = Number(nowNs() - startedNs) / 1e9;
      await uplink.stop();
      const idleStats = idle.stats();
      const uploadingStats = uploading.stats();
      const ratio = uploadingStats.p99Us / idleStats.p99Us;
      const [sample] = await outbox.read(0, 1);
      const recordBytes = sample ? Buffer.byteLength(JSON.stringify(sample)) : 0;
      return {
        suite: 'fleet',
        ...sectionOf([idleStats, uploadingStats], {
          figures: {
            'uplink.records': records,
            'uplink.seconds': seconds,
            'uplink.recordsPerSecond': records / seconds,
            'uplink.recordBytes': recordBytes,
            'trapAndSign.p99UploadingOverIdle': ratio,
          },
          rows: [
            {
              name: 'uplink: records acknowledged by the cloud',
              records,
              seconds: Number(seconds.toFixed(2)),
              'records/s': Math.round(records / seconds),
              'bytes/record': recordBytes,
            },
          ],
          targets: [target('trapAndSign p99 uploading / idle (same run)', ratio, '<=', 1.25, '×')],
          notes: [
            `${records} outbox records (the gate's signed verdicts, 6 joints × 20 points, 5 gate results each) shipped in ` +
              `batches of 100 to \`pentagate cloud serve\` on SQLite over loopback HTTP; acknowledged = chain-checked, ` +
              `stored and in the audit log, fdatasync'd by the cloud; the edge's cursor fsync'd per batch`,
            `trapAndSign timed in runs of ${CHUNK} calls with a turn of the event loop between runs, idle and uploading alike; ` +
              `${uploadingStats.count} calls were timed while the upload ran`,
          ],
        }),
      };
    } finally {
      await outbox.close();
      cloud.child.kill('SIGTERM');
      await once(cloud.child, 'exit');
      await rm(dir, { recursive: true, force: true });
    }
  },
};
export default suite;
