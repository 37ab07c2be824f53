/**
 * Fleet migration 3 on a database from before it: each stored chain's last command (seq, and the last epoch
 * a command carried) is filled from its records' audit entries, so the first upload after the upgrade is
 * already checked against the stored history; a chain of vetoes only has none. One database per dialect,
 * made by the current stores and then taken back to fleet migration 2 (the columns dropped, the version
 * forgotten), then opened again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { AuditLog } from '../../src/audit/audit-log.js';
import type { EdgeRecordWrite, RobotRecord } from '../../src/store/fleet-store.js';
import { openFleetStore } from '../../src/store/open-fleet-store.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { newApiKey } from '../../src/tenants/api-key.js';
import { digestOf, edgeChain, signedVerdict, vetoedVerdict } from '../helpers/edge-records.js';
import { clientOnNewSchema, POSTGRES_URL, requirePostgres } from '../helpers/postgres.js';

const T0 = 1_700_000_000_000;
const BACK_TO_2 = [
  'ALTER TABLE fleet_edge_chains DROP COLUMN last_command_seq',
  'ALTER TABLE fleet_edge_chains DROP COLUMN last_command_epoch',
  'DELETE FROM fleet_schema_migrations WHERE version = 3',
];

function robot(robotId: string, edgeKeyId: string): RobotRecord {
  return {
    tenantId: 'ten-a',
    robotId,
    edgeKeyId,
    commandKid: 'cmd-1',
    profileDigest: 'c'.repeat(64),
    firmwareManifests: [],
    createdAtMs: T0,
    retiredAtMs: null,
  };
}

/** arm-1: seq 1..4 in epoch 1 then a veto; arm-2: vetoes only. */
const chains = {
  'arm-1': edgeChain('arm-1', 6, T0, (robotId, index, atMs) =>
    index < 4 ? signedVerdict(robotId, index, atMs) : vetoedVerdict(robotId, atMs),
  ),
  'arm-2': edgeChain('arm-2', 3, T0, (robotId, _index, atMs) => vetoedVerdict(robotId, atMs)),
};

function writes(robotId: keyof typeof chains, from: number, to: number): EdgeRecordWrite[] {
  return chains[robotId].slice(from, to).map((r) => ({
    index: r.index,
    digest: digestOf(r),
    prevDigest: r.prevDigest,
    ...(r.verdict.commandSeq === undefined ? {} : { commandSeq: r.verdict.commandSeq }),
    ...(r.verdict.commandEpoch === undefined ? {} : { commandEpoch: r.verdict.commandEpoch }),
    audit: AuditLog.builder(
      {
        type: 'edge.verdict',
        tenantId: 'ten-a',
        actor: `edge:${robotId}`,
        subjectDigest: digestOf(r),
        data: { robotId, record: r },
      },
      T0,
    ),
  }));
}

/** Stores arm-1's records 0..4 (its commands and a veto) and arm-2's vetoes. */
async function before(store: Store): Promise<void> {
  await store.createTenant({ id: 'ten-a', name: 'a', createdAtMs: T0 });
  const fleet = await openFleetStore(store);
  for (const id of ['arm-1', 'arm-2'] as const) {
    const key = newApiKey('ten-a', 'edge', T0);
    await fleet.addRobot(
      robot(id, key.record.id),
      key.record,
      AuditLog.builder({ type: 'robot', tenantId: 'ten-a', actor: 'system', data: {} }, T0),
    );
  }
  const one = await fleet.appendEdgeRecords('ten-a', 'arm-1', writes('arm-1', 0, 5));
  const two = await fleet.appendEdgeRecords('ten-a', 'arm-2', writes('arm-2', 0, 3));
  if (one.status !== 'accepted' || two.status !== 'accepted') throw new Error('the records were not stored');
}

async function after(t: Test, store: Store): Promise<void> {
  const fleet = await openFleetStore(store);
  // record 5 of arm-1 rewritten: a command that goes back to seq 2 after the stored seq 4
  const back = writes('arm-1', 5, 6).map((w) => ({ ...w, commandSeq: 2, commandEpoch: 1 }));
  const refused = await fleet.appendEdgeRecords('ten-a', 'arm-1', back);
  t.same(
    refused.status === 'refused' && refused.refusal,
    { kind: 'history', index: 5, detail: 'command seq 2 after seq 4 (seqs must strictly increase)' },
    "the stored chain's last command was filled in, across the veto after it",
  );
  const hole = writes('arm-1', 5, 6).map((w) => ({ ...w, commandSeq: 6, commandEpoch: 1 }));
  t.match(
    await fleet.appendEdgeRecords('ten-a', 'arm-1', hole),
    { status: 'refused', refusal: { kind: 'history', detail: /a hole of 1 command/ } },
    'with its epoch',
  );
  const next = writes('arm-1', 5, 6).map((w) => ({ ...w, commandSeq: 5, commandEpoch: 1 }));
  t.match(await fleet.appendEdgeRecords('ten-a', 'arm-1', next), { status: 'accepted', stored: 1 });
  const vetoes = await fleet.appendEdgeRecords('ten-a', 'arm-2', writes('arm-2', 0, 3));
  t.match(vetoes, { status: 'accepted', duplicates: 3 }, 'a chain of vetoes only has no last command');
}

t.test('SQLite: chains stored before fleet migration 3 get their last command', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pentagate-fleet-migration-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'cloud.db');
  const made = new SqliteStore({ path });
  await before(made);
  await made.close();
  const db = new Database(path);
  for (const sql of BACK_TO_2) db.exec(sql);
  db.close();
  const store = new SqliteStore({ path });
  t.teardown(() => store.close());
  await after(t, store);
});

t.test('PostgreSQL: chains stored before fleet migration 3 get their last command', async (t) => {
  if (!(await requirePostgres(t))) return;
  const { client, schema } = await clientOnNewSchema(t);
  const made = await PostgresStore.open({ url: POSTGRES_URL, schema });
  await before(made);
  await made.close();
  for (const sql of BACK_TO_2) await client.query(sql);
  const store = await PostgresStore.open({ url: POSTGRES_URL, schema });
  t.teardown(() => store.close());
  await after(t, store);
});
