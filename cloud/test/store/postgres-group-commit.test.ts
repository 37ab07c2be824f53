/**
 * Group commit on PostgreSQL (postgres-group-commit.ts): a process's concurrent decisions share one
 * transaction, each in its own savepoint; indices stay gap-free and in commit order; one failing write
 * rejects alone, a failing COMMIT rejects the whole batch; two stores (two replicas' pools) on one database
 * never deadlock and never overspend. Runs only against a real PostgreSQL (CI=true makes its absence fail).
 */
import { MerkleTree, leafHash, verifyInclusion } from '@pentagate/crypto';
import { canonicalBytes } from '@pentagate/protocol';
import pg from 'pg';
import type { Test } from 'tap';
import t from 'tap';
import { AuditLog } from '../../src/audit/audit-log.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import type { DecisionCommit } from '../../src/store/store.js';
import { POSTGRES_URL, openTestPostgres, requirePostgres } from '../helpers/postgres.js';
import { agent, decisionWrite, tenant } from './conformance.js';

const T0 = 1_750_000_000_000;
const range = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function adminClient(t: Test): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  t.teardown(() => client.end());
  return client;
}

/** POSTGRES_URL with an application_name, to find a store's sessions in pg_stat_activity. */
function namedUrl(label: string): { name: string; url: string } {
  const name = `pg_gc_${label}_${process.pid}_${Date.now() % 1_000_000}`;
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('application_name', name);
  return { name, url: url.toString() };
}

/** How many of the named store's sessions wait for a lock. */
async function waitingOnLocks(admin: pg.Client, name: string): Promise<number> {
  const { rows } = await admin.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
    [name],
  );
  return (rows[0] as { n: number }).n;
}

/** Until `n` of the named store's sessions wait for a lock (at most 5 s). */
async function untilWaiting(admin: pg.Client, name: string, n: number): Promise<number> {
  for (let i = 0; i < 100 && (await waitingOnLocks(admin, name)) < n; i++) await sleep(50);
  return waitingOnLocks(admin, name);
}

/**
 * The stored log from 0: every index once, each entry hashed as stored and included under the root of a
 * tree built from the stored leaf hashes, and each decision's entry at the decision's audit index.
 */
async function verifyLog(t: Test, store: PostgresStore, decisions: DecisionCommit<unknown>[]) {
  const size = await store.auditSize();
  const entries = await store.auditEntries(0, size);
  t.same(
    entries.map((e) => e.index),
    range(size),
    `the log holds indices 0..${size - 1}, no gap`,
  );
  const tree = MerkleTree.fromLeafHashes(entries.map((e) => e.leafHash));
  const root = tree.rootHash(size);
  const unproven = entries.filter(
    (e) =>
      e.entry.index !== e.index ||
      !verifyInclusion(
        leafHash(canonicalBytes(e.entry)),
        e.index,
        size,
        tree.inclusionProof(e.index, size),
        root,
      ),
  );
  t.same(
    unproven.map((e) => e.index),
    [],
    'every entry carries its index, hashes as stored and is included',
  );
  const misplaced = decisions.filter(
    (d) =>
      d.decision.auditIndex !== d.audit.index ||
      (entries[d.audit.index]?.entry.data as { decisionId?: string } | undefined)?.decisionId !==
        (d.audit.entry.data as { decisionId?: string }).decisionId,
  );
  t.same(misplaced.length, 0, "each decision's entry is at its audit index");
}

/**
 * Polls the log while writes run: one statement (one snapshot) reads the count and the highest index. A
 * later index visible before an earlier one — an index not handed out in commit order — shows as a gap.
 */
function watchForGaps(schema: string) {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  let running = true;
  let polls = 0;
  const gaps: string[] = [];
  const done = (async () => {
    await client.connect();
    while (running) {
      const { rows } = await client.query(
        `SELECT count(*)::int AS n, COALESCE(max(idx), -1)::int AS top FROM ${schema}.audit_log`,
      );
      const { n, top } = rows[0] as { n: number; top: number };
      polls += 1;
      if (top !== n - 1) gaps.push(`${n} entries visible, the highest at ${top}`);
    }
    await client.end();
  })();
  return {
    async stop() {
      running = false;
      await done;
      return { polls, gaps };
    },
  };
}

if (await requirePostgres(t)) {
  t.test(
    'many concurrent decisions in one process: gap-free indices in commit order, a verifiable log',
    async (t) => {
      const store = await openTestPostgres(t);
      const a = await tenant(store);
      const agents = [await agent(store, a, 'x'), await agent(store, a, 'y'), await agent(store, a, 'z')];
      const watch = watchForGaps(store.schema!);
      const results = await Promise.all(
        range(300).map((i) =>
          store.commitDecision(decisionWrite(a, agents[i % 3]!, { amount: 1, limit: 1000 })),
        ),
      );
      const { polls, gaps } = await watch.stop();
      t.ok(polls > 0, `the log was read ${polls} times while the decisions committed`);
      t.same(gaps, [], 'no reader ever saw an index before the ones below it');
      t.same(
        results.map((r) => r.audit.index).sort((x, y) => x - y),
        range(300, 3),
        '300 decisions took indices 3..302 (after the 3 registrations), each once',
      );
      t.ok(
        results.every((r) => r.reserved),
        'all fit the budget',
      );
      await verifyLog(t, store, results);
    },
  );

  t.test(
    'decisions queue behind the batch in flight; a failing one rejects alone and leaves no gap',
    async (t) => {
      const { name, url } = namedUrl('queue');
      const store = await openTestPostgres(t, url);
      const schema = store.schema!;
      const a = await tenant(store);
      const ag = await agent(store, a);
      const earlier = await store.commitDecision(decisionWrite(a, ag, { amount: 1 }));
      t.equal(earlier.audit.index, 1);

      const admin = await adminClient(t);
      // another session holds the audit head: the store's first batch waits on it
      const blocker = await adminClient(t);
      await blocker.query('BEGIN');
      await blocker.query(`SELECT size FROM ${schema}.audit_head WHERE id = 1 FOR UPDATE`);
      let answered = 0;
      const first = store.commitDecision(decisionWrite(a, ag, { amount: 1 })).then((r) => {
        answered += 1;
        return r;
      });
      t.equal(await untilWaiting(admin, name, 1), 1, 'the first batch waits for the audit head');

      const writes = range(30).map((i) => {
        const write = decisionWrite(a, ag, { amount: 1 });
        if (i !== 9) return write;
        // the tenth reuses a committed decision's id: its INSERT fails after its audit entry was written
        return {
          ...write,
          build: (ctx: Parameters<typeof write.build>[0]) => {
            const built = write.build(ctx);
            return {
              ...built,
              parts: { ...built.parts, decision: { ...built.parts.decision, id: earlier.decision.id } },
            };
          },
        };
      });
      const rest = writes.map((w) =>
        store.commitDecision(w).then((r) => {
          answered += 1;
          return r;
        }),
      );
      await sleep(300);
      t.equal(
        await waitingOnLocks(admin, name),
        1,
        '30 more decisions queue behind it: one session waits, not one per decision',
      );
      t.equal(answered, 0, 'none is answered before its batch commits');
      await blocker.query('ROLLBACK');

      t.equal((await first).audit.index, 2);
      const settled = await Promise.allSettled(rest);
      const failed = settled.flatMap((s, i) =>
        s.status === 'rejected' ? [{ i, reason: s.reason as Error }] : [],
      );
      t.same(
        failed.map((f) => f.i),
        [9],
        'only the write with the taken id failed',
      );
      t.match(failed[0]?.reason, { code: 'STORE_UNAVAILABLE', message: /duplicate key/ });
      const committed = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      t.same(
        committed.map((r) => r.audit.index),
        range(29, 3),
        'the others took 3..31 in the order they were asked: the failed write gave its index to the next',
      );
      t.equal(await store.auditSize(), 32);
      t.same(
        await store.getDecision(a, earlier.decision.id),
        earlier.decision,
        'the earlier decision is untouched',
      );
      t.same(await store.ledgerTotals(a, ag, 60_000, T0), { spent: 0, reserved: 31 }, 'nor its reservation');
      await verifyLog(t, store, [earlier, await first, ...committed]);
    },
  );

  t.test('a batch whose COMMIT fails rejects every write in it and leaves no trace', async (t) => {
    const store = await openTestPostgres(t);
    const schema = store.schema!;
    const a = await tenant(store);
    const ag = await agent(store, a);
    const marked = 'b'.repeat(64);
    const admin = await adminClient(t);
    // a deferred constraint trigger runs at COMMIT: a decision with the marked digest makes COMMIT fail
    await admin.query(`CREATE FUNCTION ${schema}.refuse_marked() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.subject_digest = '${marked}' THEN RAISE EXCEPTION 'refused at commit'; END IF; RETURN NULL; END $$`);
    await admin.query(`CREATE CONSTRAINT TRIGGER refuse_marked AFTER INSERT ON ${schema}.decisions
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ${schema}.refuse_marked()`);
    const size = await store.auditSize();
    // asked in one turn of the event loop: one batch
    const settled = await Promise.allSettled(
      range(10).map((i) => {
        const write = decisionWrite(a, ag, { amount: 1 });
        if (i !== 4) return store.commitDecision(write);
        return store.commitDecision({
          ...write,
          build: (ctx) => {
            const built = write.build(ctx);
            const decision = { ...built.parts.decision, subjectDigest: marked };
            return { ...built, parts: { ...built.parts, decision } };
          },
        });
      }),
    );
    t.ok(
      settled.every((s) => s.status === 'rejected' && /refused at commit/.test((s.reason as Error).message)),
      'all ten rejected with the COMMIT error',
    );
    t.equal(await store.auditSize(), size, 'no index was taken');
    t.same(await store.ledgerTotals(a, ag, 60_000, T0), { spent: 0, reserved: 0 }, 'no reservation was kept');
    const next = await store.commitDecision(decisionWrite(a, ag, { amount: 1 }));
    t.equal(next.audit.index, size, 'the next decision takes the next index');
    await verifyLog(t, store, [next]);
  });

  t.test(
    'two stores on one database (two replicas) never deadlock, stay gap-free and never overspend',
    async (t) => {
      const first = await openTestPostgres(t);
      const second = await PostgresStore.open({ url: POSTGRES_URL, schema: first.schema! });
      t.teardown(() => second.close());
      const a = await tenant(first);
      const agents = [
        await agent(first, a, 'w'),
        await agent(first, a, 'x'),
        await agent(second, a, 'y'),
        await agent(second, a, 'z'),
      ];
      // each agent asked 100 times for 3 out of 100: exactly 33 fit, whichever replica asks
      const deck = agents.flatMap((ag) => range(100).map(() => ag));
      for (let i = deck.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [deck[i], deck[j]] = [deck[j]!, deck[i]!];
      }
      const watch = watchForGaps(first.schema!);
      // 16 clients per replica, each asking one decision after another: batches of several agents, in
      // different orders on the two replicas, so only the sorted lock order keeps them from deadlocking
      const settled: PromiseSettledResult<DecisionCommit<unknown>>[] = [];
      const client = async (store: PostgresStore, share: string[]) => {
        for (const ag of share) {
          const [s] = await Promise.allSettled([
            store.commitDecision(decisionWrite(a, ag, { amount: 3, limit: 100 })),
          ]);
          settled.push(s!);
        }
      };
      await Promise.all(
        range(32).map((c) =>
          client(
            c % 2 === 0 ? first : second,
            deck.filter((_, i) => i % 32 === c),
          ),
        ),
      );
      const { gaps } = await watch.stop();
      const rejected = settled.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []));
      t.same(rejected, [], 'all 400 decisions committed: no deadlock, no lock timeout');
      t.same(gaps, [], 'no reader ever saw an index before the ones below it');
      const results = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      for (const ag of agents) {
        const won = results.filter((r) => r.decision.agentId === ag && r.reserved).length;
        t.equal(won, 33, `agent ${ag}: floor(100 / 3) reservations, across both replicas`);
        t.same(await first.ledgerTotals(a, ag, 60_000, T0), { spent: 0, reserved: 99 });
      }
      t.equal(await second.auditSize(), 404, '4 registrations and 400 decisions');
      await verifyLog(t, first, results);
    },
  );

  t.test(
    "two replicas' batches that need the same two budget accounts in opposite orders do not deadlock",
    async (t) => {
      const one = namedUrl('one');
      const two = namedUrl('two');
      const first = await openTestPostgres(t, one.url);
      const second = await PostgresStore.open({ url: two.url, schema: first.schema! });
      t.teardown(() => second.close());
      const schema = first.schema!;
      const a = await tenant(first);
      const [lo, hi] = [await agent(first, a, 'p'), await agent(first, a, 'q')].sort();
      const write = (ag: string) => decisionWrite(a, ag!, { amount: 1 });
      // both accounts exist before the race
      await Promise.all([first.commitDecision(write(lo!)), first.commitDecision(write(hi!))]);
      const admin = await adminClient(t);
      const blocker = await adminClient(t);
      await blocker.query('BEGIN');
      await blocker.query(`SELECT 1 FROM ${schema}.budget_accounts WHERE agent_id = $1 FOR UPDATE`, [hi]);
      // the second replica's batch asks for hi, then lo; the first's for lo, then hi. Locked in the order
      // asked, the second would hold hi and wait for lo while the first holds lo and waits for hi.
      const fromSecond = Promise.all([second.commitDecision(write(hi!)), second.commitDecision(write(lo!))]);
      t.equal(await untilWaiting(admin, two.name, 1), 1, "the second replica's batch waits for hi");
      const fromFirst = Promise.all([first.commitDecision(write(lo!)), first.commitDecision(write(hi!))]);
      t.equal(await untilWaiting(admin, one.name, 1), 1, "the first replica's batch waits too");
      await blocker.query('ROLLBACK');
      const settled = await Promise.allSettled([fromSecond, fromFirst]);
      t.same(
        settled.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : [])),
        [],
        'both batches committed (a deadlock would have failed one after deadlock_timeout)',
      );
      t.equal(await first.auditSize(), 8, '2 registrations and 6 decisions');
      await verifyLog(t, first, [...(await fromSecond), ...(await fromFirst)]);
    },
  );

  t.test(
    "a settlement holding the agent's budget window and waiting for the audit head does not deadlock a batch",
    async (t) => {
      const { name, url } = namedUrl('settle');
      const store = await openTestPostgres(t, url);
      const a = await tenant(store);
      const ag = await agent(store, a);
      const first = decisionWrite(a, ag, { amount: 5 });
      await store.commitDecision(first); // opens the agent's budget window row
      const admin = await adminClient(t);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let holding!: () => void;
      const holds = new Promise<void>((resolve) => {
        holding = resolve;
      });
      // as the kernel settles an execution: the reservation (whose trigger locks the window row), then the
      // audit entry (audit_head) — the order every transaction() writer keeps
      const settlement = store.transaction(async (c, appendAudit) => {
        await c.query("UPDATE budget_reservations SET state = 'committed' WHERE id = $1", [
          first.reservation!.id,
        ]);
        holding();
        await gate;
        return appendAudit(AuditLog.builder({ type: 'settled', actor: 'test', data: {} }, T0));
      });
      await holds;
      const decision = store.commitDecision(decisionWrite(a, ag, { amount: 5 }));
      t.equal(await untilWaiting(admin, name, 1), 1, "the batch waits for the settlement's window lock");
      release();
      const settled = await Promise.allSettled([settlement, decision]);
      t.same(
        settled.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : [])),
        [],
        'both committed: the batch took the window lock before the audit head, as the settlement did',
      );
      t.same(await store.ledgerTotals(a, ag, 60_000, T0), { spent: 5, reserved: 5 });
      await verifyLog(t, store, [await decision]);
    },
  );

  t.test(
    "a settlement takes the agent's window rows in window_ms order, the order a batch takes them",
    async (t) => {
      const { name, url } = namedUrl('order');
      const store = await openTestPostgres(t, url);
      const a = await tenant(store);
      const ag = await agent(store, a);
      // two window lengths for one agent: rows 1 min and 1 h; then a reservation inside both windows
      await store.commitDecision(decisionWrite(a, ag, { amount: 1, windowMs: 60_000, nowMs: T0 }));
      await store.commitDecision(decisionWrite(a, ag, { amount: 1, windowMs: 3_600_000, nowMs: T0 }));
      const settling = decisionWrite(a, ag, { amount: 2, windowMs: 60_000, nowMs: T0 + 1 });
      await store.commitDecision(settling);
      const holder = await adminClient(t);
      const windows = `${store.schema}.budget_windows`;
      // the 1 min row's newest version now lies after the 1 h row in the heap, so a sequential scan (the
      // plan PostgreSQL picks for a small table) meets the 1 h row first
      await holder.query(`UPDATE ${windows} SET spent = spent WHERE agent_id = $1 AND window_ms = 60000`, [
        ag,
      ]);
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM ${windows} WHERE agent_id = $1 AND window_ms = 60000 FOR UPDATE`, [
        ag,
      ]);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const settlement = store.transaction(async (c, appendAudit) => {
        await c.query('SET LOCAL enable_indexscan = off; SET LOCAL enable_bitmapscan = off');
        await c.query("UPDATE budget_reservations SET state = 'committed' WHERE id = $1", [
          settling.reservation!.id,
        ]);
        await gate;
        return appendAudit(AuditLog.builder({ type: 'settled', actor: 'test', data: {} }, T0 + 2));
      });
      t.equal(await untilWaiting(holder, name, 1), 1, 'the settlement waits for the 1 min row');
      const probe = await adminClient(t);
      const longer = await probe
        .query(`SELECT 1 FROM ${windows} WHERE agent_id = $1 AND window_ms = 3600000 FOR UPDATE NOWAIT`, [ag])
        .then(
          () => 'free',
          (err: Error) => err.message,
        );
      t.equal(
        longer,
        'free',
        'while it waits for the 1 min row it holds no lock on the 1 h row (a batch holding the 1 min row and ' +
          'waiting for the 1 h row would otherwise close a cycle with it)',
      );
      await holder.query('COMMIT');
      release();
      await settlement;
      t.same(await store.ledgerTotals(a, ag, 60_000, T0 + 2), { spent: 2, reserved: 2 });
      t.same(await store.ledgerTotals(a, ag, 3_600_000, T0 + 2), { spent: 2, reserved: 2 });
    },
  );
}
