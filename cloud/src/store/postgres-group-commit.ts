/**
 * Group commit for PostgreSQL decisions (the queue is group-commit.ts, shared with SQLite). While one
 * batch is in flight the process's decisions queue; the next batch runs them in ONE transaction on one
 * client. One write that fails (a constraint, a bad entry) rolls back alone and rejects alone: the batch
 * is then run again with each write in its own SAVEPOINT (commitBatch). Every write pays one COMMIT — one
 * WAL flush — per batch instead of one each.
 *
 * Lock order, the same for every writer on every replica (postgres-store.ts): the batch's budget_accounts
 * rows first, in one sorted order, each with its agent's budget_windows rows, then audit_head, once, held
 * to COMMIT; so two replicas' batches never wait on each other in a cycle, and indices are handed out in
 * commit order. The other writers that append to the log (agents, policies, the kernel's, fleet's and
 * consent transactions) lock their own rows — a settlement its reservation and, through the reservation
 * trigger, the agent's window rows — then audit_head, and no budget account: none of them closes a cycle
 * with a batch either (postgres-group-commit.test.ts has both races).
 *
 * Durability: COMMIT returns once the WAL is flushed (synchronous_commit=on, the default, left alone), and
 * no write is answered before its batch's COMMIT returned.
 */
import type pg from 'pg';
import type { PostgresAudit } from './audit/postgres-audit.js';
import type { PostgresBudget } from './budget/postgres-budget.js';
import { type CommittedBatch, GroupCommitQueue, type WriteOutcome } from './group-commit.js';
import { type PostgresClient, storeErrorOf } from './postgres-query.js';

export interface BudgetAccount {
  tenantId: string;
  agentId: string;
}

export interface PostgresBatchWrite {
  /** The budget account the write reserves on, if any: the batch locks it before audit_head. */
  account: BudgetAccount | undefined;
  /**
   * Runs in the batch's transaction; `nextIndex` hands out the batch's next audit index. It may run twice
   * (again in a savepoint of its own when a write of its batch failed), so it acts on nothing but `c`.
   */
  run(c: PostgresClient, nextIndex: () => number): Promise<unknown>;
}

/**
 * Writes per transaction. In a batch run again with savepoints (commitBatch), each savepoint that writes is
 * a subtransaction with its own XID; past 64 of them
 * (PGPROC_MAX_CACHED_SUBXIDS, src/include/storage/proc.h) a backend's subxid cache overflows and every
 * other session's snapshot must consult pg_subtrans while the batch runs. The rest wait for the next batch.
 */
export const POSTGRES_MAX_BATCH = 64;

export function postgresGroupCommit(
  pool: pg.Pool,
  families: { audit: PostgresAudit; budget: PostgresBudget },
): GroupCommitQueue<PostgresBatchWrite> {
  return new GroupCommitQueue((writes) => commitBatch(pool, families, writes), POSTGRES_MAX_BATCH);
}

/**
 * The batch as ONE transaction with no savepoint: a savepoint per write is one more round trip per
 * decision under the locks (SAVEPOINT, or RELEASE and SAVEPOINT, measured at 0.4–0.9 ms each), and a
 * write fails only on a rare conflict (a composed row's key taken). When one does fail, the transaction is
 * rolled back whole and the batch runs again with a savepoint per write (commitBatchIsolated), where the
 * failing write fails alone: the same outcomes, at twice the cost for that batch only — so a caller who
 * makes their own writes fail can double the cost of the batches they are in, no more.
 */
async function commitBatch(
  pool: pg.Pool,
  families: BatchFamilies,
  writes: readonly PostgresBatchWrite[],
): Promise<CommittedBatch> {
  const first = await inTransaction(pool, families, writes, async (c, indices) => {
    const values: unknown[] = [];
    for (const write of writes) {
      try {
        values.push(await write.run(c, indices.index));
      } catch {
        return undefined; // rolled back whole: the isolated run below says which write failed, and why
      }
    }
    return values.map((value): WriteOutcome => ({ ok: true, value }));
  });
  if (first !== undefined) return { outcomes: first, durable: Promise.resolve() };
  const isolated = await inTransaction(pool, families, writes, (c, indices) =>
    commitBatchIsolated(c, writes, indices),
  );
  return { outcomes: isolated!, durable: Promise.resolve() };
}

/** Each write in its own savepoint, so one write that fails rolls back alone and rejects alone. */
async function commitBatchIsolated(
  c: PostgresClient,
  writes: readonly PostgresBatchWrite[],
  next: BatchIndices,
): Promise<WriteOutcome[]> {
  const outcomes: WriteOutcome[] = [];
  // One savepoint open at a time, always the same name. Round trips here are spent holding the locks, so:
  // a write that succeeded is released and the next one's savepoint opened in ONE simple query (which may
  // hold several statements); ROLLBACK TO leaves its savepoint open and clean for the next write; the last
  // is not released at all: COMMIT commits an open savepoint's work with the rest.
  let savepoint: 'none' | 'clean' | 'used' = 'none';
  for (const write of writes) {
    if (savepoint === 'none') await c.query('SAVEPOINT batch_write');
    else if (savepoint === 'used') await c.query('RELEASE SAVEPOINT batch_write; SAVEPOINT batch_write');
    const before = next.size();
    try {
      const value = await write.run(c, next.index);
      outcomes.push({ ok: true, value });
      savepoint = 'used';
    } catch (error) {
      // rolled back: its indices go to the next write, so the log stays gap-free
      next.rewind(before);
      await c.query('ROLLBACK TO SAVEPOINT batch_write');
      outcomes.push({ ok: false, error: storeErrorOf(error) });
      savepoint = 'clean';
    }
  }
  return outcomes;
}

type BatchFamilies = { audit: PostgresAudit; budget: PostgresBudget };

/** The batch's audit indices: handed out from the locked head, taken back when a write rolls back. */
interface BatchIndices {
  index: () => number;
  rewind: (to: number) => void;
  size: () => number;
}

/**
 * One transaction for `writes`: BEGIN, their budget accounts then audit_head locked (the lock order in the
 * header), `body`, the head stored, COMMIT. `body` answering undefined rolls the transaction back instead
 * (nothing of it is kept); a failure of the transaction itself rejects, and nothing of it is committed.
 */
async function inTransaction(
  pool: pg.Pool,
  { audit, budget }: BatchFamilies,
  writes: readonly PostgresBatchWrite[],
  body: (c: PostgresClient, indices: BatchIndices) => Promise<WriteOutcome[] | undefined>,
): Promise<WriteOutcome[] | undefined> {
  let c: PostgresClient;
  try {
    c = await pool.connect();
  } catch (err) {
    throw storeErrorOf(err);
  }
  let failed: Error | undefined;
  try {
    await c.query('BEGIN');
    for (const a of lockOrder(writes)) await budget.lockAccount(c, a.tenantId, a.agentId);
    const base = await audit.lockHead(c);
    let size = base;
    const outcomes = await body(c, {
      index: () => size++,
      rewind: (to) => {
        size = to;
      },
      size: () => size,
    });
    if (outcomes === undefined) {
      await c.query('ROLLBACK');
      return undefined;
    }
    if (size !== base) await audit.storeHead(c, size);
    await c.query('COMMIT');
    return outcomes;
  } catch (err) {
    failed = err as Error;
    await c.query('ROLLBACK').catch(() => {});
    throw storeErrorOf(err);
  } finally {
    // a client whose batch failed may be mid-protocol or cut off: the pool drops it rather than reuse it
    c.release(failed);
  }
}

/** The batch's budget accounts, each once, in the order every batch locks them: tenant, then agent. */
export function lockOrder(writes: readonly PostgresBatchWrite[]): BudgetAccount[] {
  const byKey = new Map<string, BudgetAccount>();
  for (const { account } of writes) {
    if (account) byKey.set(JSON.stringify([account.tenantId, account.agentId]), account);
  }
  return [...byKey.values()].sort((x, y) => compare(x.tenantId, y.tenantId) || compare(x.agentId, y.agentId));
}

function compare(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}
