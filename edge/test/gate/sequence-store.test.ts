import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSequenceStore, MemorySequenceStore } from '@pentagate/edge';
import t from 'tap';

t.test('seq never repeats across reopen, and the epoch survives', async (t) => {
  const path = join(mkdtempSync(join(tmpdir(), 'pg-seq-')), 'seq.json');
  const a = FileSequenceStore.open(path);
  const seen = [a.next(), a.next(), a.next()];
  t.same(seen, [1, 2, 3]);
  t.equal(a.bumpEpoch(), 1);
  t.equal(a.bumpEpoch(), 2);
  // A "crash": reopen without any shutdown hook.
  const b = FileSequenceStore.open(path);
  t.equal(b.epoch(), 2);
  const next = b.next();
  t.ok(next > 3, `after reopen ${next} > 3`);
  for (let i = 0; i < FileSequenceStore.BLOCK + 5; i++) seen.push(b.next());
  const c = FileSequenceStore.open(path);
  t.ok(c.next() > Math.max(...seen), 'a second reopen is above every seq handed out');
  t.match(JSON.parse(readFileSync(path, 'utf8')), { v: 1, epoch: 2 });
});

t.test('a damaged store refuses to open instead of starting over', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pg-seq-'));
  writeFileSync(join(dir, 'a.json'), '{"v":1,"reservedSeq":-4,"epoch":0}');
  t.throws(() => FileSequenceStore.open(join(dir, 'a.json')), { code: 'SEQUENCE_STORE' });
  writeFileSync(join(dir, 'b.json'), 'not json');
  t.throws(() => FileSequenceStore.open(join(dir, 'b.json')), { code: 'SEQUENCE_STORE' });
  t.throws(() => FileSequenceStore.open(join(dir, 'no-such-dir', 'c.json')));
});

t.test('the memory store follows the same rules', async (t) => {
  const m = new MemorySequenceStore({ seq: 10, epoch: 3 });
  t.equal(m.next(), 11);
  t.equal(m.bumpEpoch(), 4);
  t.equal(m.epoch(), 4);
});
