/**
 * A real cloud for fleet tests: SQLite in a temp directory, a tenant, a registered robot with its edge
 * key, the app listening on a real port — and restartable on the same port and database, as after a crash.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateEd25519 } from '@pentagate/crypto';
import {
  addRobot,
  buildApp,
  type CloudApp,
  createTenant,
  openFleetStore,
  SqliteStore,
} from '@pentagate/cloud';
import type { VerdictEvent } from '@pentagate/protocol';
import type { Test } from 'tap';

export interface FleetCloud {
  dir: string;
  url: string;
  port: number;
  edgeKey: string;
  tenantId: string;
  seed: Uint8Array;
  app: CloudApp | undefined;
  store: SqliteStore | undefined;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function fleetCloud(t: Test, robotId: string): Promise<FleetCloud> {
  const dir = mkdtempSync(join(tmpdir(), 'pentagate-fleet-'));
  const path = join(dir, 'cloud.db');
  const setup = new SqliteStore({ path });
  const tenantId = (await createTenant(setup, 'fleet')).id;
  const added = await addRobot(setup, await openFleetStore(setup), {
    tenantId,
    robotId,
    commandKid: `${robotId}-cmd`,
    profileDigest: 'c'.repeat(64),
  });
  await setup.close();
  const cloud: FleetCloud = {
    dir,
    url: '',
    port: 0,
    edgeKey: added.edgeKey.key,
    tenantId,
    seed: generateEd25519().privateKey,
    app: undefined,
    store: undefined,
    async start() {
      const store = new SqliteStore({ path });
      const app = await buildApp({ store, signingSeed: cloud.seed, rateLimit: false });
      await app.listen({ port: cloud.port, host: '127.0.0.1' });
      const address = app.server.address();
      cloud.port = typeof address === 'object' && address ? address.port : 0;
      cloud.url = `http://127.0.0.1:${cloud.port}`;
      cloud.app = app;
      cloud.store = store;
    },
    async stop() {
      await cloud.app?.close();
      cloud.app = undefined;
      cloud.store = undefined;
    },
  };
  await cloud.start();
  t.teardown(async () => {
    await cloud.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return cloud;
}

export function signedVerdict(robotId: string, seq: number, epoch = 1): VerdictEvent {
  return {
    v: 1,
    robotId,
    intentId: `intent-${seq}`,
    outcome: 'signed',
    atMs: Date.now(),
    violations: [],
    gates: [],
    commandSeq: seq,
    commandEpoch: epoch,
  };
}

export async function until(what: string, ok: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
