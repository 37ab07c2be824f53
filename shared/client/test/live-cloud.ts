/**
 * A real Pentagate cloud on a real port for the client tests: SQLite in a temp directory, the documented
 * example policy, two tenants with a key per scope, and a clock the test can move (holds, expiry).
 * Plus tiny real HTTP servers that misbehave on purpose (hang, drop the connection, answer a fixed body).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type BuildAppOptions,
  buildApp,
  type CloudApp,
  createTenant,
  issueApiKey,
  SqliteStore,
} from '@pentagate/cloud';
import { generateEd25519 } from '@pentagate/crypto';
import type { Test } from 'tap';

export const EXAMPLE_POLICY = readFileSync(
  fileURLToPath(new URL('../../../cloud/policies/example.yaml', import.meta.url)),
  'utf8',
);

export type Scope = 'agent' | 'operator' | 'auditor' | 'admin';

export interface LiveCloud {
  app: CloudApp;
  baseUrl: string;
  store: SqliteStore;
  clock: { nowMs: number };
  a: { id: string; keys: Record<Scope, string> };
  b: { id: string; keys: Record<Scope, string> };
}

async function tenant(store: SqliteStore, name: string) {
  const t = await createTenant(store, name);
  const keys = {} as Record<Scope, string>;
  for (const scope of ['agent', 'operator', 'auditor', 'admin'] as const)
    keys[scope] = (await issueApiKey(store, t.id, scope)).key;
  return { id: t.id, keys };
}

export async function liveCloud(t: Test, options: Partial<BuildAppOptions> = {}): Promise<LiveCloud> {
  const dir = mkdtempSync(join(tmpdir(), 'pentagate-client-'));
  const store = new SqliteStore({ path: join(dir, 'cloud.db') });
  const clock = { nowMs: Date.now() };
  const a = await tenant(store, 'tenant-a');
  const b = await tenant(store, 'tenant-b');
  const app = await buildApp({
    store,
    signingSeed: generateEd25519().privateKey,
    policy: { yamlText: EXAMPLE_POLICY, source: 'example.yaml' },
    rateLimit: false,
    nowMs: () => clock.nowMs,
    kernel: { policyUpdateHoldMs: 60_000, expirySweepMs: 0 },
    ...options,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const { port } = app.server.address() as AddressInfo;
  return { app, baseUrl: `http://127.0.0.1:${port}`, store, clock, a, b };
}

export interface RawServer {
  baseUrl: string;
  /** Requests received so far. */
  hits: number;
}

/** A fixed answer: status, content type and body text. */
export interface RawAnswer {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

/** What a proxy in front of the cloud may answer: an HTML page. */
export function proxyPage(status: number): RawAnswer {
  return { status, contentType: 'text/html', body: '<html>proxy error</html>' };
}

/** A real HTTP server whose every request is handled by `behaviour` (hang, drop, or a fixed answer). */
export async function rawServer(t: Test, behaviour: 'hang' | 'drop' | RawAnswer): Promise<RawServer> {
  const state: RawServer = { baseUrl: '', hits: 0 };
  const server: Server = createServer((req, res) => {
    state.hits++;
    if (behaviour === 'drop') req.socket.destroy();
    else if (behaviour !== 'hang')
      res
        .writeHead(behaviour.status, { 'content-type': behaviour.contentType, ...behaviour.headers })
        .end(behaviour.body);
    // 'hang': never answer
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
