/**
 * Appends made while a batch is being synced get the indexes after that batch: a burst of verdicts
 * (a STOP and its verdict while a signed command's record syncs) must leave a file that reopens and a
 * chain the cloud accepts — duplicate indexes made the outbox refuse to open and the cloud refuse a fork.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VerdictEvent } from '@pentagate/protocol';
import t from 'tap';
import { AuditOutbox } from '../../src/outbox/audit-outbox.js';

const verdict = (i: number): VerdictEvent => ({
  v: 1,
  robotId: 'arm-burst',
  outcome: 'vetoed',
  atMs: 1_800_000_000_000 + i,
  violations: [],
  gates: [],
});

t.test('appends during a sync take the indexes after the batch being written', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-outbox-burst-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'outbox.jsonl');
  const outbox = await AuditOutbox.open(path);
  const first = Array.from({ length: 20 }, (_, i) => outbox.append(verdict(i)));
  // the first batch is now being written and synced; these arrive meanwhile
  await new Promise((r) => setImmediate(r));
  const second = Array.from({ length: 20 }, (_, i) => outbox.append(verdict(20 + i)));
  const records = await Promise.all([...first, ...second]);
  t.same(
    records.map((r) => r.index),
    Array.from({ length: 40 }, (_, i) => i),
    'indexes 0..39, each once, in append order',
  );
  await outbox.close();
  const reopened = await AuditOutbox.open(path);
  t.equal(reopened.count, 40, 'the file reopens with every record');
  t.same(
    (await reopened.read(0, 40)).map((r) => r.index),
    Array.from({ length: 40 }, (_, i) => i),
  );
  await reopened.close();
});

t.test('an append made as soon as the previous one resolved takes the next index', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-outbox-burst-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const outbox = await AuditOutbox.open(join(dir, 'outbox.jsonl'));
  const indexes: number[] = [];
  for (let i = 0; i < 20; i++) indexes.push((await outbox.append(verdict(i))).index);
  t.same(
    indexes,
    Array.from({ length: 20 }, (_, i) => i),
  );
  await outbox.close();
});
