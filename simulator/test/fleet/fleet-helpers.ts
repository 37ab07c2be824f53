/**
 * A real cloud for fleet tests: SQLite in a temp directory, a tenant, a registered robot with its edge
 * key, the app listening on a real port — and restartable on the same port and database, as after a crash.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateEd25519, trustEntryFor } from '@pentagate/crypto';
import {
  addRobot,
  buildApp,
  type CloudApp,
  createTenant,
  openFleetStore,
  SqliteStore,
} from '@pentagate/cloud';
import {
  type CliIo,
  type RobotProfile,
  type TrustDocument,
  type VerdictEvent,
  VERTICES,
} from '@pentagate/protocol';
import type { Test } from 'tap';
import { DemoCloud } from '../../src/fleet/demo-cloud.js';
import { simulatedFirmware } from '../../src/models/firmware-report.js';
import { spawnedEdgeCell } from '../../src/runner/robot-cell.js';
import { DEFAULT_FIRMWARE_VERSION } from '../../src/runner/scenario-runner.js';
import type { LoadedScenario } from '../../src/scenarios/load-scenario.js';
import { createRobotCredentials } from '../../src/setup/robot-credentials.js';

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
    gates: VERTICES.map((vertex) => ({ vertex, passed: true, violations: [], evidence: {} })),
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

/** Audit events of one type in the cloud's log, as the operator reads them (`GET /api/v1/kernel/audit/events`). */
export async function auditEventsOfType(
  cloud: { url: string; registration: { operatorKey: string } },
  type: string,
): Promise<{ actor: string; subjectDigest: string }[]> {
  const headers = { authorization: `Bearer ${cloud.registration.operatorKey}` };
  const res = await fetch(`${cloud.url}/api/v1/kernel/audit/events?type=${type}`, { headers });
  return ((await res.json()) as { events: { actor: string; subjectDigest: string }[] }).events;
}

/**
 * A scenario with the edge waiting `waitMs` for consent instead of the scenario's own wait (the relay adds
 * HTTP hops, a long poll and processes on a busy machine), run on long enough to see that wait out. `lateAtMs`
 * moves the consent to that time (a late grant), and the run goes on 4 s more for the relay to give up on it
 * (it looks for the request for up to 3 s, fleet/cloud-consent.ts).
 */
export function withConsentWait(loaded: LoadedScenario, waitMs: number, lateAtMs?: number): LoadedScenario {
  const { scenario, profile } = loaded;
  return {
    ...loaded,
    profile: { ...profile, consent: { ...profile.consent, timeoutMs: waitMs } },
    scenario: {
      ...scenario,
      durationMs: scenario.durationMs + waitMs + (lateAtMs === undefined ? 0 : 4000),
      timeline: scenario.timeline.map((e) =>
        e.consent && lateAtMs !== undefined ? { ...e, at: lateAtMs } : e,
      ),
    },
  };
}

/**
 * A robot cell linked to a real cloud, all as processes: the robot's credentials, `pentagate cloud serve`
 * with the robot registered and the simulated operator's key enrolled (DemoCloud), and `pentagate edge run
 * --cloud …` with its embedded broker. Everything is closed and removed at the test's end.
 * `operatorKeyFrom: 'cloud'`: the profile's trust holds another operator's key (a profile needs one) instead
 * of the simulated operator's, so the edge trusts that only as the cloud enrolled it (and no longer once the
 * cloud retires it); by default the profile trusts it too.
 */
export async function cloudLinkedCell(
  t: Test,
  profile: RobotProfile,
  name: string,
  io: CliIo,
  { operatorKeyFrom = 'profile' }: { operatorKeyFrom?: 'profile' | 'cloud' } = {},
) {
  const dir = await mkdtemp(join(tmpdir(), `pentagate-${name}-`));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const credentials = await createRobotCredentials({
    stateDir: dir,
    profile,
    signedFirmware: simulatedFirmware(DEFAULT_FIRMWARE_VERSION),
  });
  if (operatorKeyFrom === 'cloud') {
    const trust = JSON.parse(await readFile(credentials.trustPath, 'utf8')) as TrustDocument;
    const keys = [
      ...trust.keys.filter((k) => k.role !== 'operator'),
      trustEntryFor(generateEd25519().publicKey, 'operator', {
        comment: 'a site operator, not the simulated one',
      }),
    ];
    await writeFile(credentials.trustPath, `${JSON.stringify({ keys }, null, 2)}\n`);
  }
  const cloud = await DemoCloud.prepare(
    { stateDir: dir, port: 0, robotId: profile.robotId, credentials },
    io,
  );
  t.teardown(() => cloud.close());
  await cloud.serve();
  const cell = await spawnedEdgeCell(undefined, cloud.edgeLink)(credentials, profile);
  t.teardown(() => cell.close());
  return { credentials, cloud, cell };
}
