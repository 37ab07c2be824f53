/**
 * The live view across two replicas on one PostgreSQL schema (ARCHITECTURE.md §7: stateless replicas behind a
 * load balancer): a viewer connected to one replica sees the verdicts and alarms of an edge whose uploads
 * land on the other, once each and not its own events twice. Before, each replica streamed only what it
 * ingested itself, so behind the shipped round-robin balancer a viewer saw about half of a robot's verdicts.
 */
import { get } from 'node:http';
import { generateEd25519 } from '@pentagate/crypto';
import t from 'tap';
import { buildApp } from '../../src/app/build-app.js';
import { fanoutPayload } from '../../src/fleet/live-fanout.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import { bearer, testTenant } from '../helpers/cloud-app.js';
import { edgeChain } from '../helpers/edge-records.js';
import { testRobot } from '../helpers/fleet.js';
import { openTestPostgres, POSTGRES_URL, requirePostgres } from '../helpers/postgres.js';

const RECORDS = '/api/v1/fleet/robots/arm-1/records';

/** Opens the live stream at `url`; its text so far, and the function that closes it. */
function liveStream(url: string, key: string): Promise<{ text: () => string; close: () => void }> {
  return new Promise((resolve, reject) => {
    const chunks: string[] = [];
    const req = get(url, { headers: bearer(key) }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => chunks.push(chunk));
      resolve({ text: () => chunks.join(''), close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

const eventsOf = (text: string) =>
  text
    .split('\n\n')
    .filter((block) => block.startsWith('event:'))
    .map((block) =>
      JSON.parse(
        block
          .split('\n')
          .find((l) => l.startsWith('data: '))!
          .slice(6),
      ),
    );

async function until(what: string, ok: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

t.test('PostgreSQL, two replicas: a viewer on one sees what an edge ships to the other', async (t) => {
  if (!(await requirePostgres(t))) return;
  const first = await openTestPostgres(t);
  const second = await PostgresStore.open({ url: POSTGRES_URL, schema: first.schema! });
  const tenant = await testTenant(first, 'live');
  const options = { signingSeed: generateEd25519().privateKey, ownsStore: false, rateLimit: false as const };
  const a = await buildApp({ ...options, store: first });
  // B owns its store, as `cloud serve` does: closing it must give the listening connection back first
  const b = await buildApp({ ...options, store: second, ownsStore: true });
  let bClosed = false;
  t.teardown(async () => {
    await a.close();
    if (!bClosed) await b.close();
  });
  const edgeKey = await testRobot({ store: first } as never, tenant, 'arm-1');
  const urlA = await a.listen({ port: 0, host: '127.0.0.1' });
  const urlB = await b.listen({ port: 0, host: '127.0.0.1' });
  const onA = await liveStream(`${urlA}/api/v1/fleet/live`, tenant.keys.operator);
  const onB = await liveStream(`${urlB}/api/v1/fleet/live?robot=arm-1`, tenant.keys.operator);
  t.teardown(() => {
    onA.close();
    onB.close();
  });
  await new Promise((r) => setTimeout(r, 100));

  const chain = edgeChain('arm-1', 4);
  const shipped = await a.inject({
    method: 'POST',
    url: RECORDS,
    headers: bearer(edgeKey),
    payload: { records: chain.slice(0, 2) },
  });
  t.equal(shipped.statusCode, 200, 'two records shipped to A');
  const rest = await b.inject({
    method: 'POST',
    url: RECORDS,
    headers: bearer(edgeKey),
    payload: { records: chain.slice(2) },
  });
  t.equal(rest.statusCode, 200, 'two more to B');
  const forged = structuredClone(chain);
  forged[0]!.verdict.intentId = 'intent-rewritten';
  await a.inject({ method: 'POST', url: RECORDS, headers: bearer(edgeKey), payload: { records: forged } });

  const summary = (text: string) => eventsOf(text).map((e) => `${e.type}:${e.recordIndex ?? e.kind}`);
  const expected = ['alarm:fork', 'verdict:0', 'verdict:1', 'verdict:2', 'verdict:3'];
  await until('both viewers see every event', () =>
    [onA, onB].every((s) => summary(s.text()).length >= expected.length),
  );
  await new Promise((r) => setTimeout(r, 200));
  // each replica's own events come in its order; another replica's notification may come after a local event
  const sorted = (text: string) => summary(text).sort();
  t.same(
    sorted(onB.text()),
    expected,
    'the viewer on B sees the records A ingested, and the alarm, once each',
  );
  t.same(sorted(onA.text()), expected, 'and the viewer on A those B ingested');

  onB.close();
  const closing = b.close().then(() => 'closed');
  const timeout = new Promise((r) => setTimeout(() => r('still closing after 10 s'), 10_000).unref());
  t.equal(await Promise.race([closing, timeout]), 'closed', 'a replica owning its store shuts down');
  bClosed = true;
});

t.test('an event too large for one notification is shortened, never dropped', async (t) => {
  const violations = Array.from({ length: 40 }, (_, i) => `RISK.HUMAN_IN_RADIUS: ${'x'.repeat(400)} ${i}`);
  const event = {
    type: 'verdict' as const,
    robotId: 'arm-1',
    recordIndex: 7,
    auditIndex: 99,
    outcome: 'stopped' as const,
    atMs: 1,
    violations,
  };
  const payload = fanoutPayload('replica', 'ten', event);
  t.ok(payload !== undefined && Buffer.byteLength(payload) <= 7000, 'it fits a NOTIFY payload');
  const sent = JSON.parse(payload!).e;
  t.equal(sent.outcome, 'stopped', 'the outcome is kept');
  t.match(sent.violations[1], /40 violations in all: audit entry 99/, 'and where to read the rest');
});
