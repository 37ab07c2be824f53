import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileSequenceStore, MemorySequenceStore } from '@pentagate/edge';
import t from 'tap';

t.test('seq never repeats across reopen, and the epoch survives', async (t) => {
  const path = join(t.testdir(), 'seq.json');
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
  const dir = t.testdir();
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

t.test(
  'epochs are reserved in blocks: a reopened store bumps past every epoch the last process could use',
  async (t) => {
    const path = join(t.testdir(), 'seq.json');
    const a = FileSequenceStore.open(path);
    const used: number[] = [];
    for (let i = 0; i < 5; i++) used.push(a.bumpEpoch());
    t.same(used, [1, 2, 3, 4, 5], 'inside a reservation, epochs still go up by one');
    const onDisk = JSON.parse(readFileSync(path, 'utf8'));
    t.equal(onDisk.epoch, 5, 'the latest epoch is recorded');
    t.ok(onDisk.reservedEpoch >= 5, `reservation ${onDisk.reservedEpoch} covers every epoch handed out`);
    t.equal(readFileSync(path).length, 128, 'fixed-width record, so in-place overwrites never leave a tail');
    // Simulate a power loss that lost the informative in-place record: only the durable reservation is left.
    writeFileSync(path, `${JSON.stringify({ ...onDisk, epoch: 1 })}\n`);
    const b = FileSequenceStore.open(path);
    const first = b.bumpEpoch();
    t.ok(first > Math.max(...used), `first bump after reopen (${first}) is above every used epoch`);
    t.ok(first > onDisk.reservedEpoch, 'and above the whole previous reservation');
    t.equal(b.bumpEpoch(), first + 1);
  },
);

t.test('a store file written before epoch blocks opens with its epoch as the reservation', async (t) => {
  const path = join(t.testdir(), 'seq.json');
  writeFileSync(path, '{"v":1,"reservedSeq":2048,"epoch":7}\n');
  const s = FileSequenceStore.open(path);
  t.equal(s.epoch(), 7);
  t.equal(s.next(), 2049);
  t.equal(s.bumpEpoch(), 8);
  t.match(JSON.parse(readFileSync(path, 'utf8')), {
    v: 1,
    epoch: 8,
    reservedSeq: 2048 + FileSequenceStore.BLOCK,
  });
  writeFileSync(path, '{"v":1,"reservedSeq":1,"epoch":7,"reservedEpoch":-1}');
  t.throws(() => FileSequenceStore.open(path), { code: 'SEQUENCE_STORE' });
});

t.test('opening reserves the first block, so the first seqs need no disk write', async (t) => {
  const path = join(t.testdir(), 'seq.json');
  const store = FileSequenceStore.open(path);
  const afterOpen = readFileSync(path, 'utf8');
  t.match(JSON.parse(afterOpen), { reservedSeq: FileSequenceStore.BLOCK }, 'the block is on disk at open');
  for (let i = 0; i < FileSequenceStore.BLOCK; i++) store.next();
  t.equal(readFileSync(path, 'utf8'), afterOpen, 'a whole block of seqs handed out without writing');
  t.equal(store.next(), FileSequenceStore.BLOCK + 1);
  t.match(JSON.parse(readFileSync(path, 'utf8')), { reservedSeq: 2 * FileSequenceStore.BLOCK });
});
