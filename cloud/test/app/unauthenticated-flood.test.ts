/**
 * An unauthenticated flood over a real loopback socket: without a valid key, requests count on the
 * address's budget (invented keys get no budget of their own), the first refusal of the window is
 * written at once, the rest become one counted refusal entry when the window closes — no durable write
 * per request, nothing dropped — and a valid key from the same address keeps its own budget. On both stores.
 */
import { randomBytes } from 'node:crypto';
import { generateEd25519 } from '@pentagate/crypto';
import t, { type Test } from 'tap';
import { buildApp } from '../../src/app/build-app.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { testTenant } from '../helpers/cloud-app.js';
import { openTestPostgres, requirePostgres } from '../helpers/postgres.js';

const FLOOD = 300;
const MAX_WITHOUT_KEY = 20;

const inventedKey = () => `pgk_${randomBytes(32).toString('base64url')}`;

async function floodIsLimitedAndCounted(t: Test, store: Store): Promise<void> {
  const tenant = await testTenant(store, 'flooded');
  const app = await buildApp({
    store,
    ownsStore: false,
    signingSeed: generateEd25519().privateKey,
    rateLimit: { max: 1000, maxWithoutKey: MAX_WITHOUT_KEY, timeWindowMs: 60_000 },
    // one window for the whole test: it closes when the app closes
    refusalTally: { windowMs: 3_600_000, maxAddresses: 100 },
  });
  let closed = false;
  t.teardown(async () => {
    if (!closed) await app.close();
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const sizeBefore = await store.auditSize();

  const statuses = new Map<number, number>();
  const codes = new Set<string>();
  // bounded concurrency: 10 connections, FLOOD requests, every one with a fresh invented key or none
  for (let i = 0; i < FLOOD; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: 10 }, (_, j) =>
        fetch(`${base}/api/v1/keys`, {
          headers: (i + j) % 3 === 0 ? {} : { authorization: `Bearer ${inventedKey()}` },
        }),
      ),
    );
    for (const res of batch) {
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      codes.add(((await res.json()) as { error: { code: string } }).error.code);
    }
  }
  t.equal(statuses.get(401), MAX_WITHOUT_KEY, 'the address budget admits exactly its maximum');
  t.equal(statuses.get(429), FLOOD - MAX_WITHOUT_KEY, 'the rest are rate limited, invented keys or not');
  t.same([...codes].sort(), ['RATE_LIMITED', 'UNAUTHENTICATED'], 'all in the documented error format');
  t.equal(await store.auditSize(), sizeBefore + 1, 'one durable write during the flood: the first refusal');

  const valid = await fetch(`${base}/api/v1/keys`, {
    headers: { authorization: `Bearer ${tenant.keys.auditor}` },
  });
  t.equal(valid.status, 200, 'a valid key from the flooding address keeps its own budget');

  await app.close();
  closed = true;
  const entries = await store.auditEntries(sizeBefore, await store.auditSize());
  const refusals = entries.filter((e) => e.entry.type === 'refusal');
  t.equal(refusals.length, 2, 'the first refusal, and one counted entry for the window');
  const [first, counted] = refusals.map((e) => e.entry.data as Record<string, unknown>);
  t.match(first, { address: '127.0.0.1', code: 'UNAUTHENTICATED', status: 401, route: '/api/v1/keys' });
  t.match(counted, {
    address: '127.0.0.1',
    count: FLOOD - 1,
    byCode: { UNAUTHENTICATED: MAX_WITHOUT_KEY - 1, RATE_LIMITED: FLOOD - MAX_WITHOUT_KEY },
  });
}

t.test('an unauthenticated flood is limited by address and recorded in counts (SQLite)', async (t) => {
  const store = new SqliteStore({ path: ':memory:' });
  t.teardown(() => store.close());
  await floodIsLimitedAndCounted(t, store);
});

t.test('an unauthenticated flood is limited by address and recorded in counts (PostgreSQL)', async (t) => {
  if (!(await requirePostgres(t))) return;
  await floodIsLimitedAndCounted(t, await openTestPostgres(t));
});
