import { closeSync } from 'node:fs';
import { appendFile, mkdtemp, readdir, readFile, readlink, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { AuditOutbox } from '../../src/outbox/audit-outbox.js';
import type { OutboxRecord } from '../../src/outbox/outbox-record.js';
import { EdgeRuntimeError } from '../../src/node/runtime-error.js';
import { sampleVerdict } from './helpers/verdicts.js';

async function tempDir(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-outbox-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function fill(outbox: AuditOutbox, from: number, n: number): Promise<OutboxRecord[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => outbox.append(sampleVerdict(from + i))));
}

t.test('appends survive a restart and read back from any cursor', async (t) => {
  const path = join(await tempDir(t), 'state', 'outbox.jsonl');
  const first = await AuditOutbox.open(path, { clock: () => 42 });
  const records = await fill(first, 0, 5);
  t.same(
    records.map((r) => r.index),
    [0, 1, 2, 3, 4],
    'indices follow append order even when appends share one commit',
  );
  t.equal(records[2]?.evidenceDigest, sampleVerdict(2).evidenceDigest, 'the evidence digest is lifted out');
  t.equal(records[0]?.appendedAtMs, 42);
  await first.close();

  const second = await AuditOutbox.open(path);
  t.equal(second.count, 5, 'the reopened outbox counts what was written');
  t.equal(second.repair, undefined, 'a clean file needs no repair');
  t.same(
    (await second.read(3)).map((r) => r.verdict.intentId),
    ['intent-3', 'intent-4'],
  );
  t.same(await second.read(5), [], 'nothing after the end');
  t.same(
    (await second.read(1, 1)).map((r) => r.index),
    [1],
  );
  const next = await second.append(sampleVerdict(5));
  t.equal(next.index, 5, 'appending continues the numbering');
  t.equal(next.prevDigest.length, 64);
  await second.close();
  await t.rejects(second.append(sampleVerdict(6)), { code: 'OUTBOX_CLOSED' });
});

t.test('a torn last line left by power loss is cut off and kept aside', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'outbox.jsonl');
  const outbox = await AuditOutbox.open(path);
  await fill(outbox, 0, 3);
  await outbox.close();
  const intactBytes = (await readFile(path)).length;
  // Power loss mid-write: half of a record and no newline.
  await appendFile(path, '{"v":1,"index":3,"appendedAtMs":17000000');

  const reopened = await AuditOutbox.open(path);
  t.equal(reopened.count, 3, 'the three intact records remain');
  t.equal(reopened.repair?.reason, 'no newline at the end (an append cut short)');
  t.equal((await readFile(path)).length, intactBytes, 'the file is cut back to the last intact line');
  t.equal(await readFile(reopened.repair?.savedTo ?? '', 'utf8'), '{"v":1,"index":3,"appendedAtMs":17000000');
  t.equal(
    (await reopened.append(sampleVerdict(3))).index,
    3,
    'the next append takes the torn record’s place',
  );
  await reopened.close();
  t.equal((await AuditOutbox.open(path)).count, 4, 'and the repaired chain opens cleanly');
});

t.test('a last block of zeros (file grew, data never reached the disk) is cut off too', async (t) => {
  const path = join(await tempDir(t), 'outbox.jsonl');
  const outbox = await AuditOutbox.open(path);
  await fill(outbox, 0, 2);
  await outbox.close();
  await appendFile(path, Buffer.alloc(512));
  const reopened = await AuditOutbox.open(path);
  t.equal(reopened.count, 2);
  t.equal(reopened.repair?.tornBytes, 512);
  await reopened.close();
});

t.test('a damaged line followed by intact ones is refused, not repaired', async (t) => {
  const path = join(await tempDir(t), 'outbox.jsonl');
  const outbox = await AuditOutbox.open(path);
  await fill(outbox, 0, 3);
  await outbox.close();
  const lines = (await readFile(path, 'utf8')).split('\n');
  lines[1] = (lines[1] as string).replace('intent-1', 'intent-X');
  await writeFile(path, lines.join('\n'));
  const before = await readFile(path, 'utf8');
  const err = await AuditOutbox.open(path).catch((e: unknown) => e);
  t.type(err, EdgeRuntimeError);
  t.match(err, { code: 'OUTBOX_CORRUPT', message: /line 3 is damaged \(prevDigest does not match/ });
  t.equal(await readFile(path, 'utf8'), before, 'the file is left untouched');
});

t.test('a line with the wrong index or shape is named in the error', async (t) => {
  const path = join(await tempDir(t), 'outbox.jsonl');
  const outbox = await AuditOutbox.open(path);
  await fill(outbox, 0, 2);
  await outbox.close();
  const [l0, l1] = (await readFile(path, 'utf8')).split('\n');
  await writeFile(path, `${l1}\n${l0}\n${l1}\n`);
  // the first line may be a compacted file's anchor (index > 0); what follows it must chain on
  await t.rejects(AuditOutbox.open(path), { message: /line 2 is damaged \(index 0 where 2 was expected\)/ });
  await writeFile(path, `${l1}\n`);
  await t.rejects(AuditOutbox.open(path), {
    message: /starts at record 1, but the cloud acknowledged only 0/,
  });
  await writeFile(path, `{"v":2}\n${l0}\n`);
  await t.rejects(AuditOutbox.open(path), {
    message: /line 1 is damaged \(audit outbox line 1: v: expected 1, got 2\)/,
  });
});

t.test('forward delivers each record once per acknowledgement and remembers the cursor', async (t) => {
  const path = join(await tempDir(t), 'outbox.jsonl');
  const outbox = await AuditOutbox.open(path);
  await fill(outbox, 0, 5);
  const received: number[] = [];
  t.equal(
    await outbox.forward(async (batch) => void received.push(...batch.map((r) => r.index)), { batchSize: 2 }),
    5,
  );
  t.same(received, [0, 1, 2, 3, 4]);
  t.equal(outbox.acknowledged, 5);
  t.equal(
    await outbox.forward(async () => {
      t.fail('nothing left to send');
    }),
    0,
  );

  await fill(outbox, 5, 3);
  let calls = 0;
  const failing = outbox.forward(
    async (batch) => {
      calls++;
      if (batch[0]?.index === 7) throw new Error('cloud unreachable');
    },
    { batchSize: 2 },
  );
  await t.rejects(failing, { message: 'cloud unreachable' });
  t.equal(calls, 2);
  t.equal(outbox.acknowledged, 7, 'the acknowledged batch counts, the failed one does not');
  await outbox.close();

  const reopened = await AuditOutbox.open(path);
  t.equal(reopened.acknowledged, 7, 'the cursor survives a restart');
  const resent: number[] = [];
  await reopened.forward(async (batch) => void resent.push(...batch.map((r) => r.index)));
  t.same(resent, [7], 'the unacknowledged record is offered again');
  await reopened.close();
});

t.test('a cursor beyond the end of the file is refused', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'outbox.jsonl');
  const outbox = await AuditOutbox.open(path);
  await fill(outbox, 0, 2);
  await outbox.forward(async () => {});
  await outbox.close();
  await truncate(path, 0);
  await t.rejects(AuditOutbox.open(path), {
    code: 'OUTBOX_CORRUPT',
    message: /cursor says 2 records were forwarded/,
  });
  await writeFile(`${path}.cursor`, '{"acknowledged":-1}');
  await t.rejects(AuditOutbox.open(path), { message: /expected \{"acknowledged": <integer >= 0>\}/ });
  t.same(
    (await readdir(dir)).filter((f) => f.endsWith('.tmp')),
    [],
    'no temporary cursor file is left behind',
  );
});

t.test(
  'an append that cannot be made durable fails, and so does every later one',
  { skip: process.platform === 'linux' ? false : 'needs /proc/self/fd' },
  async (t) => {
    const path = join(await tempDir(t), 'outbox.jsonl');
    const outbox = await AuditOutbox.open(path);
    await outbox.append(sampleVerdict(0));
    // Close the outbox's descriptor behind its back: the next write fails the way an I/O error would.
    for (const fd of await readdir('/proc/self/fd')) {
      const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
      if (target === path) closeSync(Number(fd));
    }
    await t.rejects(outbox.append(sampleVerdict(1)), {
      code: 'OUTBOX_CORRUPT',
      message: /could not make records durable/,
    });
    await t.rejects(outbox.append(sampleVerdict(2)), { code: 'OUTBOX_CORRUPT' }, 'the outbox stays failed');
    t.equal(outbox.count, 1, 'only the durable record counts');
  },
);
