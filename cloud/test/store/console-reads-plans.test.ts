/**
 * Every statement the console's read routes run on SQLite is an index read, not a scan of a table that grows
 * with use (audit log, proposals, consent requests, robots, decisions): the statements are caught as they run
 * (the store's database handle, wrapped before the cloud opens it) while a signed-in operator's and auditor's
 * pages are loaded — approvals, audit entries with each filter, inclusion proofs and checkpoints, keys, the
 * robot registry — and each one's EXPLAIN QUERY PLAN is read. A scan is allowed only of the tables whose rows
 * are configuration (tenants, signing keys, schema versions), not records.
 */
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type Database from 'better-sqlite3';
import t from 'tap';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { bearer, testCloud } from '../helpers/cloud-app.js';
import { consentRequestFor, liftIntent } from '../helpers/consent.js';
import { testRobot } from '../helpers/fleet.js';
import { ledgerWrite } from '../kernel/kernel-helpers.js';

/** Tables of configuration, a handful of rows each: a scan of them is not a scan of records. */
const CONFIGURATION_TABLES = new Set([
  'tenants',
  'signing_keys',
  'schema_migrations',
  'kernel_schema_migrations',
]);

t.test("the console's reads are index reads", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pentagate-plans-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = new SqliteStore({ path: join(dir, 'cloud.db') });
  const db = store.database;
  let recording = false;
  const ran = new Map<string, unknown[]>();
  const prepare = db.prepare.bind(db);
  // Each statement prepared from now on reports its SQL and parameters when it runs while `recording`.
  db.prepare = ((sql: string) => {
    const statement = prepare(sql);
    for (const method of ['get', 'all', 'iterate'] as const) {
      const run = (statement[method] as (...params: unknown[]) => unknown).bind(statement);
      (statement as unknown as Record<string, unknown>)[method] = (...params: unknown[]) => {
        if (recording && /^\s*(SELECT|WITH)\b/i.test(sql)) ran.set(sql, params);
        return run(...params);
      };
    }
    return statement;
  }) as Database.Database['prepare'];

  const cloud = await testCloud(t, { store });
  const inject = (key: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    cloud.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
  for (let i = 0; i < 5; i++) {
    const res = await inject(cloud.a.keys.agent, 'POST', '/api/v1/kernel/authorize', {
      ...ledgerWrite(20, 'billing-bot', { context: { agentId: 'billing-bot', confidenceScore: 0.1 } }),
    });
    t.equal(res.statusCode, 200);
  }
  const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
  const request = consentRequestFor(liftIntent('arm-1'), Date.now(), 120_000);
  t.equal(
    (await inject(edgeKey, 'POST', '/api/v1/fleet/robots/arm-1/consent-requests', request)).statusCode,
    200,
  );

  recording = true;
  const reads: [string, string][] = [
    [cloud.a.keys.operator, '/api/v1/approvals'],
    [cloud.a.keys.auditor, '/api/v1/audit/entries?limit=20'],
    [cloud.a.keys.auditor, '/api/v1/audit/entries?limit=20&before=3'],
    [cloud.a.keys.auditor, '/api/v1/audit/entries?limit=20&agentId=billing-bot'],
    [cloud.a.keys.auditor, '/api/v1/audit/entries?limit=20&type=decision'],
    [cloud.a.keys.auditor, '/api/v1/audit/entries?limit=20&before=4&type=decision'],
    [cloud.a.keys.auditor, '/api/v1/audit/checkpoint'],
    [cloud.a.keys.auditor, '/api/v1/audit/inclusion?index=1&size=3'],
    [cloud.a.keys.auditor, '/api/v1/keys'],
    [cloud.a.keys.operator, '/api/v1/fleet/robots'],
    [cloud.a.keys.auditor, '/api/v1/kernel/audit/events?agentId=billing-bot&limit=5'],
  ];
  const entries = (await inject(cloud.a.keys.auditor, 'GET', '/api/v1/audit/entries?limit=1')).json() as {
    entries: { data: { proposalId?: string; decisionId?: string } }[];
  };
  t.ok(entries.entries.length === 1);
  for (const [key, url] of reads) {
    const res = await inject(key, 'GET', url);
    t.equal(res.statusCode, 200, url);
  }
  recording = false;

  t.ok(ran.size >= 5, `${ran.size} distinct read statements ran`);
  const tables = new Set(
    (prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
      (r) => r.name,
    ),
  );
  for (const [sql, params] of ran) {
    const plan = (prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map(
      (r) => r.detail,
    );
    const scans = plan.filter((d) => {
      const m = /^SCAN (\w+)(?! USING (?:COVERING )?INDEX| USING INTEGER PRIMARY KEY)/.exec(d);
      // (a subquery's rows, `SCAN arm0`, are at most a page: only tables count)
      return m !== null && tables.has(m[1]!) && !CONFIGURATION_TABLES.has(m[1]!);
    });
    t.same(scans, [], `${sql.replace(/\s+/g, ' ').slice(0, 140)} — ${plan.join(' | ')}`);
  }
});
