/**
 * The reads a decision makes under the audit_head lock on PostgreSQL stay index lookups however long the
 * agent's history grows: the call history (RELEVANT_CALLS_SQL) and the budget window (WINDOW_FROM_ACCOUNT_SQL,
 * READ_WINDOW_SQL). Without planner statistics PostgreSQL read the call history through the wrong index and
 * the window sums through a join filter, both over every row of the agent; the store now analyses the decision
 * tables as they grow (postgres-statistics.ts) and the window bounds are index range bounds. Each plan is
 * executed (EXPLAIN ANALYZE, in a transaction rolled back) and must not discard more rows than it returns.
 */
import pg from 'pg';
import t from 'tap';
import { READ_WINDOW_SQL, WINDOW_FROM_ACCOUNT_SQL } from '../../src/store/budget/postgres-budget.js';
import { RELEVANT_CALLS_SQL } from '../../src/store/call-history/postgres-call-history.js';
import { DECISION_TABLES } from '../../src/store/postgres-statistics.js';
import { bearer, registerLobe, testCloud, transferCall } from '../helpers/cloud-app.js';
import { POSTGRES_URL, openTestPostgres, requirePostgres } from '../helpers/postgres.js';

/** Calls decided before the plans are read: far more than any read's row limit. */
const HISTORY_CALLS = 400;

/** `i` in letters (a, b, …, ba, …): calls that differ only in numbers are near-identical (a loop). */
function letters(i: number): string {
  const s = String.fromCharCode(97 + (i % 26));
  return i < 26 ? s : letters(Math.floor(i / 26)) + s;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Join Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** Rows the plan read and threw away: filters, join filters and rechecks, over every loop. */
function rowsDiscarded(plan: PlanNode): number {
  return nodesOf(plan).reduce(
    (sum, n) =>
      sum +
      ((n['Rows Removed by Filter'] ?? 0) +
        (n['Rows Removed by Join Filter'] ?? 0) +
        (n['Rows Removed by Index Recheck'] ?? 0)) *
        (n['Actual Loops'] ?? 1),
    0,
  );
}

t.test('PostgreSQL: a decision reads its history and budget window by index, not by filtering', async (t) => {
  if (!(await requirePostgres(t))) return;
  const store = await openTestPostgres(t);
  const cloud = await testCloud(t, { store });
  const lobe = await registerLobe(cloud, cloud.a);
  for (let i = 0; i < HISTORY_CALLS; i++) {
    const res = await cloud.app.inject({
      method: 'POST',
      url: '/api/v1/agentgate/propose',
      headers: bearer(cloud.a.keys.agent),
      payload: transferCall(lobe, 1, {
        arguments: { recipient: `supplier ${letters(i)}`, amount: 1, currency: 'USD', memo: 'consulting' },
      }),
    });
    if (res.statusCode !== 200 || res.json().approved !== true) {
      t.fail(`call ${i}: ${res.statusCode} ${res.body}`);
      return;
    }
  }
  await store.statisticsSettled();

  const client = new pg.Client({ connectionString: POSTGRES_URL, options: `-c search_path=${store.schema}` });
  await client.connect();
  t.teardown(() => client.end());
  const analysed = await client.query(
    `SELECT relname FROM pg_stat_user_tables
      WHERE schemaname = $1 AND (last_analyze IS NOT NULL OR last_autoanalyze IS NOT NULL)`,
    [store.schema],
  );
  t.same(
    analysed.rows
      .map((r) => r.relname)
      .filter((name) => DECISION_TABLES.includes(name))
      .sort(),
    [...DECISION_TABLES].sort(),
    'every decision table has planner statistics',
  );

  const [last] = (await client.query('SELECT * FROM call_history ORDER BY at_ms DESC, seq DESC LIMIT 1'))
    .rows as {
    tenant_id: string;
    agent_id: string;
    fingerprint: string;
    near_fingerprint: string;
    at_ms: string;
  }[];
  const [window] = (await client.query('SELECT * FROM budget_windows')).rows as {
    window_ms: string;
    cutoff_ms: string;
  }[];
  if (!last || !window) {
    t.fail('the calls left a call history row and a budget window');
    return;
  }
  const nowMs = Number(last.at_ms) + 1;
  const reads: [string, string, unknown[]][] = [
    [
      'call history',
      RELEVANT_CALLS_SQL,
      [last.tenant_id, last.agent_id, last.fingerprint, 0, last.near_fingerprint, 'payments.transfer', 0, 50],
    ],
    [
      'budget window in the decision batch',
      WINDOW_FROM_ACCOUNT_SQL,
      [last.tenant_id, last.agent_id, window.window_ms, nowMs - Number(window.window_ms)],
    ],
    [
      'budget window outside a batch',
      READ_WINDOW_SQL,
      [last.tenant_id, last.agent_id, window.window_ms, nowMs - Number(window.window_ms)],
    ],
  ];
  for (const [what, sql, params] of reads) {
    await client.query('BEGIN');
    try {
      const res = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
      const plan = (res.rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan;
      const discarded = rowsDiscarded(plan);
      t.ok(
        discarded < 10,
        `${what}: ${discarded} rows read and discarded with ${HISTORY_CALLS} calls in the history`,
      );
      t.notOk(
        nodesOf(plan).some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] !== 'budget_windows'),
        `${what}: no sequential scan of a growing table`,
      );
    } finally {
      await client.query('ROLLBACK');
    }
  }
});
