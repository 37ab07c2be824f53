/**
 * `npm run bench -- cloud` (speed): autocannon against `POST /api/v1/agentgate/propose` — realistic
 * tool calls, durable SQLite audit log (WAL, group commit: one transaction and one fdatasync per batch,
 * each answer after its batch's fdatasync), Ed25519-signed statements and governance tokens, bearer-key
 * auth — beside a bare Fastify hello-world route, on the same machine in the same run, with the same
 * connections and duration. Reports req/s and p50/p99 for both and their ratio.
 * Target: propose ≥ 30% of the hello-world throughput.
 *
 * Each server runs in its own worker thread (this same file, started with workerData) so the load
 * generator on the main thread does not share an event loop with the server it measures. The cloud is
 * loaded from `cloud/dist` (npm run bench builds first), or from `$PENTAGATE_BENCH_CLOUD_DIST` (a path to
 * another build's dist/index.js) to compare two builds under the same conditions. After the propose run
 * the worker closes the app and re-opens the database: every answered request must have its audit entry
 * on disk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { type BenchSuite, target } from '../harness/index.js';
import { BENCH_AGENT, benchPolicy, load, loadRow, proposeLoad, root } from './cloud/propose-load.js';
const CLOUD_DIST = process.env.PENTAGATE_BENCH_CLOUD_DIST
  ? pathToFileURL(process.env.PENTAGATE_BENCH_CLOUD_DIST).href
  : new URL('cloud/dist/index.js', root).href;
const WORKER_ROLE = 'pentagate-cloud-bench-server';

type ServerKind = 'hello' | 'propose';

interface WorkerInput {
  role: typeof WORKER_ROLE;
  kind: ServerKind;
  dir: string;
}

interface ServerReady {
  url: string;
  apiKey?: string;
  lobe?: string;
}

interface ServerStopped {
  auditEntries: number;
  decisions: number;
}

/** The few @pentagate/cloud exports the benchmark uses (the bench package does not depend on cloud). */
interface CloudModule {
  buildApp(options: Record<string, unknown>): Promise<BenchApp>;
  SqliteStore: new (options: { path: string }) => BenchStore;
  createTenant(store: BenchStore, name: string): Promise<{ id: string }>;
  issueApiKey(
    store: BenchStore,
    tenantId: string,
    scope: string,
    nowMs?: number,
    binding?: { region?: string; department?: string },
  ): Promise<{ key: string }>;
}
interface BenchStore {
  auditSize(): Promise<number>;
  auditEntries(from: number, to: number): Promise<{ entry: { type: string } }[]>;
  close(): Promise<void>;
}
interface BenchApp {
  listen(options: { port: number; host: string }): Promise<string>;
  inject(options: Record<string, unknown>): Promise<{ statusCode: number; json(): { lobe_name: string } }>;
  close(): Promise<void>;
  get(path: string, handler: () => unknown): void;
}

// ---------------------------------------------------------------- worker side: one server per worker
async function serve(input: WorkerInput): Promise<void> {
  const port = parentPort!;
  if (input.kind === 'hello') {
    const cloudRequire = createRequire(fileURLToPath(new URL('cloud/package.json', root)));
    const fastify = (await import(pathToFileURL(cloudRequire.resolve('fastify')).href)).default as (
      o: object,
    ) => BenchApp;
    const app = fastify({ logger: false });
    app.get('/hello', () => ({ hello: 'world' }));
    port.postMessage({ url: await app.listen({ port: 0, host: '127.0.0.1' }) } satisfies ServerReady);
    port.once('message', async () => {
      await app.close();
      port.postMessage({ auditEntries: 0, decisions: 0 } satisfies ServerStopped);
    });
    return;
  }
  const cloud = (await import(CLOUD_DIST)) as CloudModule;
  const dbPath = join(input.dir, 'cloud.db');
  const store = new cloud.SqliteStore({ path: dbPath });
  const tenant = await cloud.createTenant(store, 'bench');
  const { key } = await cloud.issueApiKey(store, tenant.id, 'agent', Date.now(), { department: 'finance' });
  const { generateEd25519 } = await import('@pentagate/crypto');
  const app = await cloud.buildApp({
    store,
    signingSeed: generateEd25519().privateKey,
    policy: { yamlText: benchPolicy(), source: 'example.yaml (bench budget)' },
    rateLimit: false,
    logger: false,
  });
  const reg = await app.inject({
    method: 'POST',
    url: '/api/v1/agentgate/register',
    headers: { authorization: `Bearer ${key}` },
    payload: BENCH_AGENT,
  });
  const lobe = reg.json().lobe_name;
  port.postMessage({
    url: await app.listen({ port: 0, host: '127.0.0.1' }),
    apiKey: key,
    lobe,
  } satisfies ServerReady);
  port.once('message', async () => {
    await app.close(); // drains in-flight requests, then closes the store
    const reopened = new cloud.SqliteStore({ path: dbPath });
    const size = await reopened.auditSize();
    const entries = await reopened.auditEntries(0, size);
    await reopened.close();
    port.postMessage({
      auditEntries: size,
      decisions: entries.filter((e) => e.entry.type === 'decision').length,
    } satisfies ServerStopped);
  });
}

if (!isMainThread && (workerData as WorkerInput | undefined)?.role === WORKER_ROLE) {
  await serve(workerData as WorkerInput);
}

// ---------------------------------------------------------------- main side: load generation
function startWorker(
  kind: ServerKind,
  dir: string,
): Promise<{ ready: ServerReady; stop(): Promise<ServerStopped> }> {
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { role: WORKER_ROLE, kind, dir } satisfies WorkerInput,
  });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (ready: ServerReady) =>
      resolve({
        ready,
        stop: () =>
          new Promise<ServerStopped>((done, fail) => {
            worker.once('message', async (stopped: ServerStopped) => {
              await worker.terminate();
              done(stopped);
            });
            worker.once('error', fail);
            worker.postMessage('stop');
          }),
      }),
    );
  });
}

const suite: BenchSuite = {
  name: 'cloud',
  description:
    'cloud: autocannon on agentgate propose (durable SQLite audit, signed tokens) vs bare Fastify hello-world',
  async run(ctx) {
    const durationS = ctx.quick ? 2 : 10;
    const connections = 32;
    const dir = mkdtempSync(join(tmpdir(), 'pentagate-bench-cloud-'));
    try {
      ctx.log(`hello-world: ${connections} connections × ${durationS} s…`);
      const hello = await startWorker('hello', dir);
      await load({ url: `${hello.ready.url}/hello`, connections, duration: 1 }); // warm-up
      const helloResult = await load({ url: `${hello.ready.url}/hello`, connections, duration: durationS });
      await hello.stop();

      ctx.log(`propose: ${connections} connections × ${durationS} s…`);
      const cloud = await startWorker('propose', dir);
      const { url, apiKey, lobe } = cloud.ready;
      const proposeOptions = (duration: number) => proposeLoad(url, apiKey!, lobe!, connections, duration);
      await load(proposeOptions(1)); // warm-up (JIT, SQLite page cache)
      const proposeResult = await load(proposeOptions(durationS));
      const stopped = await cloud.stop();

      const ratio = proposeResult.rps / helloResult.rps;
      return {
        suite: 'cloud',
        // the runner prefixes each key with the suite name: cloud.propose.reqPerSec, cloud.ratio, …
        figures: {
          'helloWorld.reqPerSec': helloResult.rps,
          'helloWorld.p50Ms': helloResult.p50Ms,
          'helloWorld.p99Ms': helloResult.p99Ms,
          'helloWorld.non2xx': helloResult.non2xx,
          'propose.reqPerSec': proposeResult.rps,
          'propose.p50Ms': proposeResult.p50Ms,
          'propose.p99Ms': proposeResult.p99Ms,
          'propose.non2xx': proposeResult.non2xx,
          'propose.errors': proposeResult.errors,
          'propose.auditEntriesDurable': stopped.auditEntries,
          'propose.decisionsDurable': stopped.decisions,
          ratio,
          ratioPercent: ratio * 100,
        },
        rows: [
          loadRow('GET /hello (bare Fastify)', helloResult),
          loadRow('POST /api/v1/agentgate/propose', proposeResult),
        ],
        // The issue's bar is 10 % of hello-world in one process; 30 % is its long-term goal. Answers count only
        // when durable, so the run also has to show no refusal and every answered decision on disk.
        targets: [
          target('propose throughput vs hello-world', ratio * 100, '>=', 10, '%'),
          target('propose throughput vs hello-world (long-term goal)', ratio * 100, '>=', 30, '%'),
          target('propose non-2xx and errors', proposeResult.non2xx + proposeResult.errors, '<=', 0),
          target(
            'answered proposes without a decision on disk',
            Math.max(0, proposeResult.requests - stopped.decisions),
            '<=',
            0,
          ),
        ],
        notes: [
          `like for like: both servers alone in their own worker thread, started the same way, each warmed up for 1 s ` +
            `and then driven by the same autocannon settings (${connections} connections, ${durationS} s, no pipelining) ` +
            'from the main thread, one after the other in the same run',
          'propose: example policy (budget raised so calls stay approvals), bearer auth, Ed25519 DSSE + governance token, ' +
            'SQLite WAL with group commit and one fdatasync per batch, audit entry durable before each answer',
          `after close: ${stopped.decisions} decisions and ${stopped.auditEntries} audit entries on disk ` +
            `(answered proposes incl. warm-up: ${proposeResult.requests} + warm-up)`,
        ],
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
export default suite;
