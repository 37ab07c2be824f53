/**
 * FreshRead, which the consent relay reads the operator keys through: a caller gets a read begun after it
 * asked (one under way may predate a retirement), callers of one moment share a read, reads never overlap,
 * and a failed read fails its callers without stopping the next.
 */
import t from 'tap';
import { FreshRead } from '../../src/uplink/fresh-read.js';

/** A read the test answers by hand: `started` counts the reads begun, `answer(i, v)` settles the i-th. */
function manualRead() {
  const answers: ((v: number | Error) => void)[] = [];
  let running = 0;
  let overlapped = false;
  const read = () =>
    new Promise<number>((resolve, reject) => {
      running++;
      if (running > 1) overlapped = true;
      answers.push((v) => {
        running--;
        if (v instanceof Error) reject(v);
        else resolve(v);
      });
    });
  const tick = () => new Promise((r) => setImmediate(r));
  return {
    read,
    tick,
    started: () => answers.length,
    overlapped: () => overlapped,
    answer: (i: number, v: number | Error) => answers[i]?.(v),
  };
}

t.test('callers of one moment share one read', async (t) => {
  const m = manualRead();
  const fresh = new FreshRead(m.read);
  const first = fresh.fresh();
  const second = fresh.fresh();
  await m.tick();
  t.equal(m.started(), 1);
  m.answer(0, 7);
  t.same(await Promise.all([first, second]), [7, 7]);
});

t.test('a caller arriving while a read runs gets the next read, begun after that one ends', async (t) => {
  const m = manualRead();
  const fresh = new FreshRead(m.read);
  const old = fresh.fresh();
  await m.tick();
  t.equal(m.started(), 1);
  // asked after the first read went out: its answer may predate what this caller must see
  const later = fresh.fresh();
  const alsoLater = fresh.fresh();
  await m.tick();
  t.equal(m.started(), 1, 'no second read while the first runs');
  m.answer(0, 1);
  t.equal(await old, 1);
  await m.tick();
  t.equal(m.started(), 2, 'the next read begins when the first ends');
  m.answer(1, 2);
  t.same(await Promise.all([later, alsoLater]), [2, 2], 'both late callers get the later answer');
  t.notOk(m.overlapped(), 'never two reads at once');
});

t.test('a failed read fails its callers, and the next read goes ahead', async (t) => {
  const m = manualRead();
  const fresh = new FreshRead(m.read);
  const failing = fresh.fresh();
  await m.tick();
  const next = fresh.fresh();
  m.answer(0, new Error('cloud unreachable'));
  await t.rejects(failing, /cloud unreachable/);
  await m.tick();
  m.answer(1, 3);
  t.equal(await next, 3);
});
