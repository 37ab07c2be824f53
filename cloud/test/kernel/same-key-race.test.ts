/**
 * Concurrent requests with one idempotency key (tool_call.id on the agent route, idempotencyKey on the
 * kernel route) that all got past the first look-up — held at commitDecision until every one has arrived,
 * so only the store can settle them: one decision, every other request answered with it, the budget
 * reserved once, one audit entry and no gap in the log. The proposal row is written in the decision's
 * transaction, and its unique key rolls the losers back whole. On SQLite, and on PostgreSQL with two
 * replicas that each have their own store (own pool and decision batches) on one schema, so the loser
 * collides with a row another transaction committed.
 */
import { generateEd25519 } from '@pentagate/crypto';
import t, { type Test } from 'tap';
import { type CloudApp, buildApp } from '../../src/app/build-app.js';
import { PostgresStore } from '../../src/store/postgres-store.js';
import type { Store } from '../../src/store/store.js';
import { barrierAtCommit } from '../helpers/budget-race.js';
import { bearer, EXAMPLE_POLICY, testTenant, transferCall } from '../helpers/cloud-app.js';
import { openTestPostgres, POSTGRES_URL, requirePostgres } from '../helpers/postgres.js';
import { kernelCloud, ledgerWrite } from './kernel-helpers.js';

type Tap = Test;

const SAME_KEY = 6;
const SPEND = 40;

interface Race {
  apps: CloudApp[];
  stores: Store[];
  tenantId: string;
  key: string;
}

/** The log holds every index from 0 to its size once, in order. */
async function gapFree(t: Tap, store: Store): Promise<void> {
  const size = await store.auditSize();
  const entries = await store.auditEntries(0, size);
  t.ok(
    entries.length === size && entries.every((e, i) => e.index === i),
    `the audit log is gap-free (${size} entries)`,
  );
}

/**
 * Sends `payload` to `url` SAME_KEY times at once, spread over the replicas, every request held at the store
 * until all have decided; checks that each one reached the store and was answered, and returns the bodies.
 */
async function sameRequestAtOnce(t: Tap, r: Race, url: string, payload: object) {
  const arrived = barrierAtCommit(r.stores, SAME_KEY, 5000);
  const responses = await Promise.all(
    Array.from({ length: SAME_KEY }, (_, i) =>
      r.apps[i % r.apps.length]!.inject({ method: 'POST', url, headers: bearer(r.key), payload }),
    ),
  );
  t.equal(arrived(), SAME_KEY, "every request decided and reached the store: the race is the store's");
  t.same(
    responses.map((res) => res.statusCode),
    Array(SAME_KEY).fill(200),
    'every request is answered',
  );
  return responses.map((res) => res.json());
}

async function agentRouteRace(t: Tap, r: Race): Promise<void> {
  const lobe = await registerLobeOn(r.apps[0]!, r.key);
  const store = r.stores[0]!;
  const sizeBefore = await store.auditSize();
  const body = transferCall(lobe, SPEND);
  const bodies = await sameRequestAtOnce(t, r, '/api/v1/agentgate/propose', body);
  const ids = new Set(bodies.map((b) => b.decision_id));
  t.equal(ids.size, 1, 'one decision for all of them');
  t.ok(
    bodies.every((b) => b.approved && b.governance_token === bodies[0].governance_token),
    'the same verdict and token for every request',
  );
  const decisionId = [...ids][0] as string;
  t.equal(await store.auditSize(), sizeBefore + 1, 'one audit entry: the losers took no index');
  const entries = await store.auditEntries(sizeBefore, sizeBefore + 1);
  t.equal(entries[0]?.entry.data?.decisionId, decisionId, 'and it is the decision answered');
  await gapFree(t, store);
  const agent = await store.findAgentByLobe(r.tenantId, lobe);
  const totals = await store.ledgerTotals(r.tenantId, agent!.id, 3_600_000, Date.now() + 1000);
  t.equal(totals.spent + totals.reserved, SPEND, 'the budget is reserved once');
  const calls = await store.recentCalls(r.tenantId, agent!.id, 0, 100);
  t.equal(calls.length, 1, 'one call in the metabolic ledger');
}

async function kernelRouteRace(t: Tap, r: Race): Promise<void> {
  const store = r.stores[0]!;
  // a first call registers the agent (kernel route: on first contact)
  const first = await r.apps[0]!.inject({
    method: 'POST',
    url: '/api/v1/kernel/authorize',
    headers: bearer(r.key),
    payload: ledgerWrite(1, 'same-key-bot'),
  });
  t.equal(first.statusCode, 200);
  const sizeBefore = await store.auditSize();
  const action = ledgerWrite(SPEND, 'same-key-bot', { idempotencyKey: `invoice-${Date.now()}` });
  const bodies = await sameRequestAtOnce(t, r, '/api/v1/kernel/authorize', action);
  t.equal(new Set(bodies.map((b) => b.proposalId)).size, 1, 'one proposal for all of them');
  t.ok(
    bodies.every((b) => b.status === 'ALLOW' && b.proof?.auditEntry?.data?.decisionId === b.proposalId),
    'the same decision for every request, each with its proof',
  );
  t.equal(await store.auditSize(), sizeBefore + 1, 'one audit entry: the losers took no index');
  const entries = await store.auditEntries(sizeBefore, sizeBefore + 1);
  t.equal(entries[0]?.entry.data?.decisionId, bodies[0].proposalId, 'and it is the decision answered');
  await gapFree(t, store);
  const agent = await store.findAgentById(r.tenantId, 'same-key-bot');
  const totals = await store.ledgerTotals(r.tenantId, agent!.id, 3_600_000, Date.now() + 1000);
  t.equal(totals.spent + totals.reserved, 1 + SPEND, 'the budget is reserved once (after the first call)');
}

async function registerLobeOn(app: CloudApp, key: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/agentgate/register',
    headers: bearer(key),
    payload: {
      agent_name: 'same-key-agent',
      domain: 'FINANCE',
      capabilities: ['payments.transfer'],
      agent_version: '1.0.0',
      model_id: 'gpt-4o',
    },
  });
  if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(`register failed: ${res.body}`);
  return res.json().lobe_name as string;
}

/** Two replicas, each with its own PostgresStore on one fresh schema. */
async function postgresReplicas(t: Tap): Promise<Race> {
  const first = await openTestPostgres(t);
  const second = await PostgresStore.open({ url: POSTGRES_URL, schema: first.schema! });
  const tenant = await testTenant(first, 'same-key');
  const options = {
    signingSeed: generateEd25519().privateKey,
    ownsStore: false,
    rateLimit: false as const,
    policy: { yamlText: EXAMPLE_POLICY, source: 'example.yaml' },
    kernel: { expirySweepMs: 0 },
  };
  const apps = [await buildApp({ ...options, store: first }), await buildApp({ ...options, store: second })];
  t.teardown(async () => {
    for (const app of apps) await app.close();
    await second.close();
  });
  return { apps, stores: [first, second], tenantId: tenant.id, key: tenant.keys.agent };
}

t.test('SQLite: concurrent proposes with one tool_call.id make one decision', async (t) => {
  const c = await kernelCloud(t);
  await agentRouteRace(t, { apps: [c.app], stores: [c.store], tenantId: c.a.id, key: c.a.keys.agent });
});

t.test('SQLite: concurrent authorizes with one idempotencyKey make one decision', async (t) => {
  const c = await kernelCloud(t);
  await kernelRouteRace(t, { apps: [c.app], stores: [c.store], tenantId: c.a.id, key: c.a.keys.agent });
});

t.test('PostgreSQL, two replicas: concurrent proposes with one tool_call.id make one decision', async (t) => {
  if (!(await requirePostgres(t))) return;
  await agentRouteRace(t, await postgresReplicas(t));
});

t.test(
  'PostgreSQL, two replicas: concurrent authorizes with one idempotencyKey make one decision',
  async (t) => {
    if (!(await requirePostgres(t))) return;
    await kernelRouteRace(t, await postgresReplicas(t));
  },
);
