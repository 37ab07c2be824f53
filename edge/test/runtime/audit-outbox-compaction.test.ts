/**
 * Compaction of the audit outbox: records the cloud acknowledged leave the file, the last of them stays as
 * the anchor, and indexes and the hash chain carry on across the compaction and a restart. Appends and
 * reads made while a compaction runs see one consistent file; a compaction cut short before its rename
 * leaves the outbox as it was; a file whose start was cut beyond what the cloud acknowledged is refused.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import t from 'tap';
import { AuditOutbox } from '../../src/outbox/audit-outbox.js';
import { GENESIS_DIGEST, lineDigest } from '../../src/outbox/outbox-record.js';
import { sampleVerdict } from './helpers/verdicts.js';

async function outboxPath(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-compact-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return join(dir, 'outbox.jsonl');
}

async function fill(outbox: AuditOutbox, from: number, n: number) {
  return Promise.all(Array.from({ length: n }, (_, i) => outbox.append(sampleVerdict(from + i))));
}

/** Every line of the file chains to the one before; returns the indexes in the file. */
async function chainedIndexes(path: string): Promise<number[]> {
  const lines = (await readFile(path, 'utf8')).trim().split('\n');
  let previous: string | undefined;
  const indexes: number[] = [];
  for (const line of lines) {
    const record = JSON.parse(line) as { index: number; prevDigest: string };
    if (previous !== undefined && record.prevDigest !== lineDigest(previous)) {
      throw new Error(`record ${record.index} does not chain to ${indexes.at(-1)}`);
    }
    indexes.push(record.index);
    previous = line;
  }
  return indexes;
}

const acceptAll = async () => {};

t.test('acknowledged records leave the file; the chain and the numbering carry on', async (t) => {
  const path = await outboxPath(t);
  const outbox = await AuditOutbox.open(path);
  const written = await fill(outbox, 0, 50);
  t.equal(await outbox.compact(), 0, 'nothing is compacted before the cloud acknowledged anything');
  await outbox.forward(acceptAll, { batchSize: 30 });
  const sizeBefore = outbox.sizeBytes;
  t.equal(await outbox.compact(), 49, 'all acknowledged records but the anchor are dropped');
  t.equal(outbox.firstIndex, 49, 'the last acknowledged record is the anchor');
  t.equal(outbox.count, 50, 'the count is of every record ever written');
  t.ok(outbox.sizeBytes < sizeBefore / 40, `the file shrank (${sizeBefore} → ${outbox.sizeBytes} bytes)`);
  const more = await fill(outbox, 50, 10);
  t.same(
    more.map((r) => r.index),
    Array.from({ length: 10 }, (_, i) => 50 + i),
  );
  t.equal(
    more[0]?.prevDigest,
    lineDigest((await readFile(path, 'utf8')).split('\n')[0]!),
    'chained to the anchor',
  );
  await t.rejects(
    outbox.read(10),
    { code: 'OUTBOX_COMPACTED' },
    'compacted records are gone, and it says so',
  );
  t.same(
    (await outbox.read(49, 2)).map((r) => r.index),
    [49, 50],
  );
  await outbox.close();
  t.same(
    await chainedIndexes(path),
    Array.from({ length: 11 }, (_, i) => 49 + i),
  );
  t.not(written[49]?.prevDigest, GENESIS_DIGEST);

  const reopened = await AuditOutbox.open(path);
  t.same(
    [reopened.firstIndex, reopened.count, reopened.acknowledged],
    [49, 60, 50],
    'a restart sees the same',
  );
  const next = await reopened.append(sampleVerdict(60));
  t.equal(next.index, 60, 'and numbers on');
  t.same(
    (await reopened.read(50, 100)).map((r) => r.index),
    Array.from({ length: 11 }, (_, i) => 50 + i),
  );
  await reopened.close();
});

t.test('appends and reads during a compaction see one consistent outbox', async (t) => {
  const path = await outboxPath(t);
  const outbox = await AuditOutbox.open(path);
  for (let round = 0; round < 8; round++) {
    await fill(outbox, round * 40, 25);
    await outbox.forward(acceptAll, { batchSize: 7 });
    const acknowledged = outbox.acknowledged;
    // a burst of appends and a read from the cursor, all while the compaction runs
    const [dropped, burst, read] = await Promise.all([
      outbox.compact(),
      fill(outbox, round * 40 + 25, 15),
      outbox.read(acknowledged - 1, 5),
    ]);
    t.ok(dropped >= 0);
    t.same(
      burst.map((r) => r.index),
      Array.from({ length: 15 }, (_, i) => round * 40 + 25 + i),
      `round ${round}: the burst's indexes follow on`,
    );
    t.equal(read[0]?.index, acknowledged - 1, `round ${round}: the read got the records it asked for`);
  }
  await outbox.close();
  const indexes = await chainedIndexes(path);
  t.equal(indexes.at(-1), 319, 'no record lost');
  t.same(
    indexes,
    Array.from({ length: indexes.length }, (_, i) => indexes[0]! + i),
    'contiguous',
  );
  const reopened = await AuditOutbox.open(path);
  t.equal(reopened.count, 320);
  await reopened.close();
});

t.test('a cut-short compaction changes nothing; a start cut beyond the cursor is refused', async (t) => {
  const path = await outboxPath(t);
  const outbox = await AuditOutbox.open(path);
  await fill(outbox, 0, 10);
  await outbox.forward(acceptAll);
  await outbox.close();
  const original = await readFile(path, 'utf8');
  // a crash after writing the new file, before the rename
  await writeFile(`${path}.compact`, original.split('\n').slice(5).join('\n'));
  const after = await AuditOutbox.open(path);
  t.same([after.firstIndex, after.count], [0, 10], 'the outbox is as it was');
  await after.close();
  await t.rejects(readFile(`${path}.compact`), { code: 'ENOENT' }, 'the leftover is removed');

  // records never acknowledged cut from the front: refused, not forwarded
  const lines = original.trim().split('\n');
  await writeFile(`${path}.cursor`, `${JSON.stringify({ acknowledged: 3 })}\n`);
  await writeFile(path, `${lines.slice(5).join('\n')}\n`);
  await t.rejects(AuditOutbox.open(path), { code: 'OUTBOX_CORRUPT', message: /starts at record 5/ });
});
