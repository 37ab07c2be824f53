/**
 * `npm run bench -- cloud-scale`: does a second `pentagate cloud serve` add throughput? Replicas share one
 * PostgreSQL database (a fresh one per run, dropped afterwards) and one signing key; the same propose load as
 * the `cloud` suite runs against one process, then against two (the connections split between them), one
 * after the other in the same run. Target: the second process adds ≥ 60 %. After the run the database is
 * counted: every answered propose has its decision and audit entry.
 *
 * The servers are real `cloud serve` processes; autocannon runs in this process and shares the 2 cores with
 * them, which is part of what is measured. `PENTAGATE_BENCH_PG_URL` names the server (default
 * postgres://postgres@127.0.0.1:5432/test; the user must be allowed to create databases).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchSuite, target } from '../harness/index.js';
import {
  BENCH_AGENT,
  benchPolicy,
  type LoadResult,
  load,
  loadRow,
  proposeLoad,
  root,
} from './cloud/propose-load.js';

const PENTAGATE = fileURLToPath(new URL('bin/pentagate.js', root));

interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}

function pgClient(connectionString: string): PgClient {
  // bench does not depend on pg: it is the cloud's driver, resolved from there
  const cloudRequire = createRequire(fileURLToPath(new URL('cloud/package.json', root)));
  const pg = cloudRequire('pg') as { Client: new (o: { connectionString: string }) => PgClient };
  return new pg.Client({ connectionString });
}

function pentagateJson<T>(args: string[]): Promise<T> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [PENTAGATE, ...args, '--json'], (err, stdout, stderr) =>
      err
        ? reject(new Error(`pentagate ${args.join(' ')}: ${stderr || err.message}`))
        : resolve(JSON.parse(stdout)),
    ),
  );
}

interface Replica {
  url: string;
  process: ChildProcess;
}

async function startReplica(dbUrl: string, stateDir: string, policyPath: string): Promise<Replica> {
  const child = spawn(
    process.execPath,
    [
      PENTAGATE,
      'cloud',
      'serve',
      // port 0: the replica takes a free port and says which on stderr ("listening on http://…")
      '--port',
      '0',
      '--db',
      dbUrl,
      // one state dir: the first replica generates the signing key there, the second uses the same one
      '--state-dir',
      stateDir,
      '--policy',
      policyPath,
      // the load is one API key: the per-key limit would measure the limiter, not the server
      '--rate-limit',
      '100000000',
      '--log-level',
      'warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let url: string | undefined;
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += String(d);
    url ??= /listening on (http:\/\/\S+?)\s/.exec(stderr)?.[1];
  });
  const deadline = Date.now() + 60_000;
  const fail = (message: string): never => {
    child.kill('SIGKILL'); // a replica that never came up must not keep the bench alive
    throw new Error(message);
  };
  for (;;) {
    if (child.exitCode !== null) fail(`cloud serve exited ${child.exitCode}: ${stderr}`);
    try {
      if (url !== undefined && (await fetch(`${url}/healthz`)).ok) return { url, process: child };
    } catch {
      // not answering yet
    }
    if (Date.now() > deadline) fail(`cloud serve did not answer on /healthz within 60 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function stopReplica(r: Replica): Promise<void> {
  return new Promise((resolve) => {
    if (r.process.exitCode !== null) return resolve();
    r.process.once('exit', () => resolve());
    r.process.kill('SIGTERM');
  });
}

function sum(results: LoadResult[]): LoadResult {
  const total = (f: (r: LoadResult) => number) => results.reduce((a, r) => a + f(r), 0);
  return {
    rps: total((r) => r.rps),
    // the slower replica's percentiles: what a client of the pair sees at worst
    p50Ms: Math.max(...results.map((r) => r.p50Ms)),
    p99Ms: Math.max(...results.map((r) => r.p99Ms)),
    requests: total((r) => r.requests),
    non2xx: total((r) => r.non2xx),
    errors: total((r) => r.errors),
  };
}

const suite: BenchSuite = {
  name: 'cloud-scale',
  description: 'cloud: propose req/s with 1 and 2 `cloud serve` processes on one PostgreSQL database',
  async run(ctx) {
    const durationS = ctx.quick ? 2 : 10;
    const connections = 32;
    const server = process.env.PENTAGATE_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const dbName = `pentagate_scale_${process.pid}_${Date.now()}`;
    const dbUrlParts = new URL(server);
    dbUrlParts.pathname = `/${dbName}`;
    const dbUrl = dbUrlParts.toString();
    const admin = pgClient(server);
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    const dir = mkdtempSync(join(tmpdir(), 'pentagate-bench-scale-'));
    const replicas: Replica[] = [];
    try {
      const policyPath = join(dir, 'policy.yaml');
      writeFileSync(policyPath, benchPolicy());
      const tenant = await pentagateJson<{ id: string }>([
        'cloud',
        'tenant',
        'create',
        'bench',
        '--db',
        dbUrl,
      ]);
      const { key } = await pentagateJson<{ key: string }>([
        'cloud',
        'apikey',
        'issue',
        '--tenant',
        tenant.id,
        '--scope',
        'agent',
        '--department',
        'finance',
        '--db',
        dbUrl,
      ]);
      ctx.log('one replica…');
      replicas.push(await startReplica(dbUrl, dir, policyPath));
      const registered = await fetch(`${replicas[0]!.url}/api/v1/agentgate/register`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(BENCH_AGENT),
      });
      if (!registered.ok) throw new Error(`register: ${registered.status} ${await registered.text()}`);
      const lobe = ((await registered.json()) as { lobe_name: string }).lobe_name;
      const drive = (duration: number) =>
        Promise.all(
          replicas.map((r) => load(proposeLoad(r.url, key, lobe, connections / replicas.length, duration))),
        ).then(sum);
      await drive(1); // warm-up
      const one = await drive(durationS);
      ctx.log('two replicas…');
      replicas.push(await startReplica(dbUrl, dir, policyPath));
      await drive(1);
      const two = await drive(durationS);
      await Promise.all(replicas.map(stopReplica));
      const db = pgClient(dbUrl);
      await db.connect();
      const decisions = Number((await db.query('SELECT count(*) AS n FROM decisions')).rows[0]?.n);
      const entries = Number((await db.query('SELECT count(*) AS n FROM audit_log')).rows[0]?.n);
      await db.end();
      const gain = two.rps / one.rps - 1;
      const answered = one.requests + two.requests;
      return {
        suite: 'cloud-scale',
        figures: {
          'oneReplica.reqPerSec': one.rps,
          'oneReplica.p99Ms': one.p99Ms,
          'twoReplicas.reqPerSec': two.rps,
          'twoReplicas.p99Ms': two.p99Ms,
          secondReplicaGainPercent: gain * 100,
          non2xx: one.non2xx + two.non2xx,
          decisionsDurable: decisions,
          auditEntriesDurable: entries,
        },
        rows: [loadRow('1 × cloud serve (PostgreSQL)', one), loadRow('2 × cloud serve (same database)', two)],
        targets: [
          target('throughput added by the second replica', gain * 100, '>=', 60, '%'),
          target('answered proposes without a decision on disk', Math.max(0, answered - decisions), '<=', 0),
        ],
        notes: [
          `each replica a \`pentagate cloud serve --db postgres://…\` process with the same signing key; ` +
            `${connections} autocannon connections in all (split evenly between the replicas), ${durationS} s each ` +
            'after a 1 s warm-up, load generator in this process on the same 2 cores',
          `after the run: ${decisions} decisions and ${entries} audit entries in the database ` +
            `(answered proposes: ${answered}, warm-ups not counted)`,
        ],
      };
    } finally {
      await Promise.all(replicas.map(stopReplica));
      await admin.query(`DROP DATABASE IF EXISTS ${dbName}`).catch(() => {});
      await admin.end();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
export default suite;
