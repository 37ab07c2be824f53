/**
 * The refusal tally on a real store: the first refusal of an address per window is for the caller to
 * write, the rest become one counted entry per address; a failed write keeps its counts for the next
 * window; addresses beyond the bound share one count.
 */
import { generateEd25519 } from '@pentagate/crypto';
import t, { type Test } from 'tap';
import { RefusalTally, OTHER_ADDRESSES } from '../../src/app/refusal-tally.js';
import { AuditLog } from '../../src/audit/audit-log.js';
import { serverKeysFromSeed } from '../../src/keys/server-keys.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { StoreError } from '../../src/store/store-error.js';

function setup(t: Test, maxAddresses = 10) {
  const store = new SqliteStore({ path: ':memory:' });
  t.teardown(() => store.close());
  const keys = serverKeysFromSeed(generateEd25519().privateKey, 'test.local/audit');
  const errors: unknown[] = [];
  const tally = new RefusalTally(new AuditLog(store, keys.origin, keys.note), {
    windowMs: 60_000,
    maxAddresses,
    nowMs: () => Date.parse('2026-11-23T21:00:00Z'),
    onError: (err) => errors.push(err),
  });
  return { store, tally, errors };
}

t.test('first refusal per address is written by the caller, the rest counted per address', async (t) => {
  const { store, tally } = setup(t);
  t.equal(tally.note('10.0.0.1', 'UNAUTHENTICATED'), true);
  t.equal(tally.note('10.0.0.1', 'UNAUTHENTICATED'), false);
  t.equal(tally.note('10.0.0.1', 'RATE_LIMITED'), false);
  t.equal(tally.note('10.0.0.2', 'NOT_FOUND'), true);
  t.equal(tally.pending, 2);
  await tally.flush();
  const entries = await store.auditEntries(0, await store.auditSize());
  t.equal(entries.length, 1, 'one entry: only 10.0.0.1 had refusals beyond its first');
  t.match(entries[0]?.entry, {
    type: 'refusal',
    data: { address: '10.0.0.1', count: 2, byCode: { UNAUTHENTICATED: 1, RATE_LIMITED: 1 } },
  });
  t.equal(tally.note('10.0.0.1', 'UNAUTHENTICATED'), true, 'a new window starts with a written refusal');
});

t.test('a failed write keeps its counts for the next window', async (t) => {
  const { store, tally, errors } = setup(t);
  tally.note('10.0.0.9', 'UNAUTHENTICATED');
  for (let i = 0; i < 5; i++) tally.note('10.0.0.9', 'RATE_LIMITED');
  const append = store.appendAudit.bind(store);
  store.appendAudit = async () => {
    throw new StoreError('disk full');
  };
  await tally.flush();
  t.equal(errors.length, 1, 'the failure is reported');
  t.equal(tally.pending, 5, 'and the counts are kept');
  store.appendAudit = append;
  tally.note('10.0.0.9', 'UNAUTHENTICATED');
  tally.note('10.0.0.9', 'UNAUTHENTICATED');
  await tally.stop();
  const entries = await store.auditEntries(0, await store.auditSize());
  t.equal(entries.length, 1);
  t.match(entries[0]?.entry.data, {
    address: '10.0.0.9',
    count: 6,
    byCode: { RATE_LIMITED: 5, UNAUTHENTICATED: 1 },
  });
});

t.test('addresses beyond the bound share one count', async (t) => {
  const { store, tally } = setup(t, 2);
  t.equal(tally.note('a', 'UNAUTHENTICATED'), true);
  t.equal(tally.note('b', 'UNAUTHENTICATED'), true);
  t.equal(tally.note('c', 'UNAUTHENTICATED'), false, 'no immediate write past the bound');
  t.equal(tally.note('d', 'UNAUTHENTICATED'), false);
  await tally.flush();
  const entries = await store.auditEntries(0, await store.auditSize());
  t.match(
    entries.map((e) => e.entry.data),
    [{ address: OTHER_ADDRESSES, count: 2 }],
  );
});
