/**
 * Graceful shutdown loses nothing: requests in flight when close() begins finish with their answer, their
 * decisions and audit entries are durable after the store closed, and requests arriving during the drain
 * are refused with 503 SHUTTING_DOWN (or find the port closed) rather than half-served.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { DecisionCommit, DecisionWrite } from '../../src/store/store.js';
import { registerLobe, testCloud, transferCall } from '../helpers/cloud-app.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

t.test('in-flight proposes finish and are durable; later requests are refused', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pentagate-drain-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'cloud.db');
  const store = new SqliteStore({ path });
  // Hold every decision at the store until released, so the requests are provably in flight at close().
  let arrived = 0;
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const commit = store.commitDecision.bind(store);
  store.commitDecision = async <T>(write: DecisionWrite<T>): Promise<DecisionCommit<T>> => {
    arrived++;
    await gate;
    return commit(write);
  };
  const cloud = await testCloud(t, { store });
  const lobe = await registerLobe(cloud, cloud.a);
  const base = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const headers = { authorization: `Bearer ${cloud.a.keys.agent}`, 'content-type': 'application/json' };
  const inFlight = Array.from({ length: 10 }, (_, i) =>
    fetch(`${base}/api/v1/agentgate/propose`, {
      method: 'POST',
      headers,
      body: JSON.stringify(transferCall(lobe, 10 + i)),
    }),
  );
  while (arrived < 10) await sleep(5); // wait for a condition, not for a duration
  const closed = cloud.app.close();
  const late = await fetch(`${base}/healthz`).then(
    (res) => res.status,
    () => 'refused',
  );
  t.ok(late === 503 || late === 'refused', `a request during the drain is refused (${late})`);
  release();
  const responses = await Promise.all(inFlight);
  t.same(
    responses.map((r) => r.status),
    Array(10).fill(200),
    'every in-flight request got its answer',
  );
  const ids = responses.map((r) => r.headers.get('x-pentagate-decision-id')!);
  await closed;
  const reopened = new SqliteStore({ path });
  t.teardown(() => reopened.close());
  for (const id of ids) t.ok(await reopened.getDecision(cloud.a.id, id), `decision ${id} is durable`);
});
