/**
 * Round trips a PostgreSQL decision batch makes while it holds audit_head (postgres-group-commit.ts): every
 * one is time no decision of any replica can commit, so their number per decision is part of the design.
 * A reserving decision costs two — its budget window read (and moved) in one statement whether its clock
 * is ahead of the account or behind it, and its rows in one statement (the kernel's proposal row among
 * them), with no savepoint of its own unless a write of the batch failed — then the batch writes the head
 * once.
 * Counted on the wire: every query a client sends between locking audit_head and COMMIT.
 */
import pg from 'pg';
import t from 'tap';
import { openTestPostgres, requirePostgres } from '../helpers/postgres.js';
import { agent, decisionWrite, tenant } from './conformance.js';

const T0 = 1_750_000_000_000;
const DECISIONS = 10;

/** Counts, per batch, the queries sent under audit_head (until COMMIT); restore() puts pg back. */
function countUnderAuditHead(): { batches: number[]; restore: () => void } {
  const original = pg.Client.prototype.query;
  const open = new WeakMap<object, number>();
  const batches: number[] = [];
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    const sql = typeof first === 'string' ? first : (first?.text ?? '');
    const under = open.get(this);
    if (/FROM audit_head WHERE id = 1 FOR UPDATE/.test(sql)) open.set(this, 0);
    else if (under !== undefined && sql === 'COMMIT') {
      batches.push(under);
      open.delete(this);
    } else if (under !== undefined) open.set(this, under + 1);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  const restore = () => {
    pg.Client.prototype.query = original;
  };
  return { batches, restore };
}

t.test('a reserving decision costs two round trips under audit_head', async (t) => {
  if (!(await requirePostgres(t))) return;
  const store = await openTestPostgres(t);
  const a = await tenant(store);
  const ag = await agent(store, a);
  // opens the agent's budget window; the batch below finds it and moves it once per decision
  await store.commitDecision(decisionWrite(a, ag, { amount: 1, limit: 1000, nowMs: T0 }));
  const counter = countUnderAuditHead();
  t.teardown(counter.restore);
  // handed over in one turn: one batch. Each decision at its own millisecond and not in clock order (as
  // concurrent requests reach the batch), so some move the window and some are behind its cutoff.
  await Promise.all(
    Array.from({ length: DECISIONS }, (_, i) =>
      store.commitDecision(
        decisionWrite(a, ag, { amount: 1, limit: 1000, nowMs: T0 + 1 + ((i * 7) % DECISIONS) }),
      ),
    ),
  );
  counter.restore();
  t.same(counter.batches, [2 * DECISIONS + 1], `one batch: ${DECISIONS} × (window, rows), then the head`);
  t.same(
    await store.ledgerTotals(a, ag, 60_000, T0 + DECISIONS),
    { spent: 0, reserved: 1 + DECISIONS },
    'every reservation counted once',
  );
});
