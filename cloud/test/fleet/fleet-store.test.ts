/**
 * The fleet store's contract, run against both implementations (SQLite, and PostgreSQL when reachable):
 * robots with their edge keys, retirement revoking the key, operator keys, and the shipped-chain rule —
 * contiguous records admitted once, duplicates acknowledged, gaps, forks and rewritten records refused
 * whole with nothing stored — each admitted record an `edge.verdict` leaf of the audit log.
 */
import t, { type Test } from 'tap';
import { AuditLog } from '../../src/audit/audit-log.js';
import type { ConsentRequestRecord } from '../../src/store/consent-queue.js';
import type { EdgeRecordWrite, FleetStore, RobotRecord } from '../../src/store/fleet-store.js';
import { openFleetStore } from '../../src/store/open-fleet-store.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { newApiKey } from '../../src/tenants/api-key.js';
import { consentRequestFor, liftIntent } from '../helpers/consent.js';
import { digestOf, edgeChain, GENESIS } from '../helpers/edge-records.js';
import { openTestPostgres, requirePostgres } from '../helpers/postgres.js';

type Tap = Test;

const T0 = 1_800_000_000_000;
const entry = (type: string, data: Record<string, unknown>) =>
  AuditLog.builder({ type, tenantId: 'ten-a', actor: 'system', data }, T0);

function robot(robotId: string, edgeKeyId: string): RobotRecord {
  return {
    tenantId: 'ten-a',
    robotId,
    edgeKeyId,
    commandKid: 'cmd-1',
    profileDigest: 'c'.repeat(64),
    firmwareManifests: [{ payloadType: 'x', payload: 'eA', signatures: [] }],
    createdAtMs: T0,
    retiredAtMs: null,
  };
}

function writes(
  robotId: string,
  from: number,
  to: number,
  chain = edgeChain(robotId, to),
): EdgeRecordWrite[] {
  return chain.slice(from, to).map((r) => ({
    index: r.index,
    digest: digestOf(r),
    prevDigest: r.prevDigest,
    audit: AuditLog.builder(
      {
        type: 'edge.verdict',
        tenantId: 'ten-a',
        actor: `edge:${robotId}`,
        subjectDigest: digestOf(r),
        data: { robotId, record: r },
      },
      T0,
    ),
  }));
}

async function contract(t: Tap, store: Store): Promise<void> {
  await store.createTenant({ id: 'ten-a', name: 'a', createdAtMs: T0 });
  const fleet: FleetStore = await openFleetStore(store);
  const key = newApiKey('ten-a', 'edge', T0);
  const added = await fleet.addRobot(
    robot('arm-1', key.record.id),
    key.record,
    entry('robot', { action: 'add' }),
  );
  t.equal(added.added, true, 'a new robot is added');
  t.equal((await store.findApiKeyByHash(key.record.keyHashHex))?.scope, 'edge', 'with its edge key');
  const other = newApiKey('ten-a', 'edge', T0);
  t.same(
    await fleet.addRobot(robot('arm-1', other.record.id), other.record, entry('robot', {})),
    { added: false },
    'a robot id is registered once per tenant',
  );
  t.equal(await store.findApiKeyByHash(other.record.keyHashHex), undefined, 'the refused add issued no key');
  t.same((await fleet.getRobot('ten-a', 'arm-1'))?.firmwareManifests.length, 1);
  t.equal(await fleet.getRobot('ten-b', 'arm-1'), undefined, 'robots are per tenant');

  t.same(await fleet.chainState('ten-a', 'arm-1'), { acknowledged: 0, headDigest: GENESIS });
  const chain = edgeChain('arm-1', 10);
  const first = await fleet.appendEdgeRecords('ten-a', 'arm-1', writes('arm-1', 0, 5, chain));
  t.equal(first.status, 'accepted');
  t.same(
    first.status === 'accepted' && [first.stored, first.duplicates, first.state.acknowledged],
    [5, 0, 5],
  );
  t.equal(first.status === 'accepted' && first.state.headDigest, digestOf(chain[4]!));
  const replay = await fleet.appendEdgeRecords('ten-a', 'arm-1', writes('arm-1', 0, 5, chain));
  t.same(
    replay.status === 'accepted' && [replay.stored, replay.duplicates],
    [0, 5],
    'a replay is stored once',
  );
  const overlap = await fleet.appendEdgeRecords('ten-a', 'arm-1', writes('arm-1', 3, 8, chain));
  t.same(
    overlap.status === 'accepted' && [overlap.stored, overlap.duplicates],
    [3, 2],
    'an overlap adds only the new',
  );

  const size = await store.auditSize();
  const gap = await fleet.appendEdgeRecords('ten-a', 'arm-1', writes('arm-1', 9, 10, chain));
  t.same(
    gap.status === 'refused' && gap.refusal,
    { kind: 'gap', expectedIndex: 8, gotIndex: 9 },
    'a gap is refused',
  );
  const forked = edgeChain('arm-1', 10, T0 + 5);
  const fork = await fleet.appendEdgeRecords('ten-a', 'arm-1', writes('arm-1', 8, 10, forked));
  t.equal(
    fork.status === 'refused' && fork.refusal.kind,
    'fork',
    'a record not chained to the head is a fork',
  );
  const rewritten = writes('arm-1', 6, 9, chain);
  rewritten[0] = { ...rewritten[0]!, digest: 'f'.repeat(64) };
  const rewrite = await fleet.appendEdgeRecords('ten-a', 'arm-1', rewritten);
  t.match(
    rewrite.status === 'refused' && rewrite.refusal,
    { kind: 'fork', index: 6 },
    'a rewritten record is refused',
  );
  t.same(
    await fleet.chainState('ten-a', 'arm-1'),
    { acknowledged: 8, headDigest: digestOf(chain[7]!) },
    'refusals store nothing',
  );
  t.equal(await store.auditSize(), size, 'and append nothing to the log');

  const audit = await store.auditEntries(0, await store.auditSize());
  const shipped = audit.filter((a) => a.entry.type === 'edge.verdict');
  t.same(
    shipped.map((a) => (a.entry.data.record as { index: number }).index),
    [0, 1, 2, 3, 4, 5, 6, 7],
    'each record is one log entry, in order',
  );

  t.ok(await fleet.retireRobot('ten-a', 'arm-1', T0 + 9, entry('robot', { action: 'retire' })));
  t.equal(
    (await store.findApiKeyByHash(key.record.keyHashHex))?.revokedAtMs,
    T0 + 9,
    'retiring revokes the edge key',
  );
  t.equal(await fleet.retireRobot('ten-a', 'arm-1', T0 + 10, entry('robot', {})), undefined, 'once');
  t.same(
    (await fleet.listRobots('ten-a')).map((r) => [r.robotId, r.retiredAtMs]),
    [['arm-1', T0 + 9]],
  );

  await fleet.putOperatorKey(
    {
      tenantId: 'ten-a',
      operatorId: 'op-1',
      kid: 'k1',
      publicKey: 'AAAA',
      createdAtMs: T0,
      retiredAtMs: null,
    },
    entry('operator', {}),
  );
  await fleet.putOperatorKey(
    {
      tenantId: 'ten-a',
      operatorId: 'op-1',
      kid: 'k2',
      publicKey: 'BBBB',
      createdAtMs: T0 + 1,
      retiredAtMs: null,
    },
    entry('operator', {}),
  );
  t.same(
    (await fleet.listOperatorKeys('ten-a')).map((k) => k.kid),
    ['k2'],
    'an operator has one enrolled key',
  );
}

/** The consent queue: a request stored once, granted once while waiting and before its deadline, taken once. */
async function consentContract(t: Tap, store: Store): Promise<void> {
  const fleet = await openFleetStore(store);
  const request = consentRequestFor(liftIntent('arm-1', 'lift-1'), T0, 1000);
  const record: ConsentRequestRecord = {
    tenantId: 'ten-a',
    robotId: 'arm-1',
    intentDigest: request.intentDigest,
    request,
    state: 'waiting',
    deadlineMs: T0 + 1000,
    createdAtMs: T0,
    operatorId: null,
    grantedAtMs: null,
    deliveredAtMs: null,
  };
  t.ok(await fleet.consents.put(record, entry('consent.request', {})), 'a new request is stored and audited');
  t.equal(
    await fleet.consents.put(record, entry('consent.request', {})),
    undefined,
    'a repeat stores nothing',
  );
  t.same(
    (await fleet.consents.listWaiting('ten-a', T0 + 10)).map((r) => r.request),
    [request],
    'it waits, its request intact',
  );
  t.same(await fleet.consents.listWaiting('ten-a', T0 + 1000), [], 'not past its deadline');
  t.same(await fleet.consents.listWaiting('ten-b', T0 + 10), [], 'and only in its tenant');
  const token = { payloadType: 'x', payload: 'eA', signatures: [] };
  const late = await fleet.consents.grant(
    'ten-a',
    'arm-1',
    request.intentDigest,
    { token, operatorId: 'alice', nowMs: T0 + 1000 },
    entry('consent.grant', {}),
  );
  t.equal(late, undefined, 'a grant at the deadline stores nothing');
  const grants = await Promise.all(
    ['alice', 'bob'].map((operatorId) =>
      fleet.consents.grant(
        'ten-a',
        'arm-1',
        request.intentDigest,
        { token: { ...token, payload: operatorId }, operatorId, nowMs: T0 + 10 },
        entry('consent.grant', { operatorId }),
      ),
    ),
  );
  t.equal(grants.filter(Boolean).length, 1, 'of two concurrent grants exactly one is stored');
  t.equal((await fleet.consents.get('ten-a', 'arm-1', request.intentDigest))?.state, 'granted');
  const taken = await Promise.all([1, 2].map(() => fleet.consents.takeGranted('ten-a', 'arm-1', T0 + 20)));
  t.equal(taken.flat().length, 1, 'the token is taken once, even by two takers at once');
  t.equal((await fleet.consents.get('ten-a', 'arm-1', request.intentDigest))?.deliveredAtMs, T0 + 20);

  // A replay of the request already served (same deadline, received later) changes nothing.
  t.equal(
    await fleet.consents.put({ ...record, createdAtMs: T0 + 5000 }, entry('consent.request', {})),
    undefined,
    'a replayed request does not reopen a delivered one',
  );
  t.equal((await fleet.consents.get('ten-a', 'arm-1', request.intentDigest))?.state, 'delivered');

  // The same intent parked again later (same digest): its closed row reopens as a new wait.
  const again = { ...record, createdAtMs: T0 + 5000, deadlineMs: T0 + 6000 };
  t.ok(
    await fleet.consents.put(again, entry('consent.request', {})),
    'a closed request reopens for a new wait',
  );
  const reopened = await fleet.consents.get('ten-a', 'arm-1', request.intentDigest);
  t.same(
    [reopened?.state, reopened?.operatorId, reopened?.deliveredAtMs, reopened?.deadlineMs],
    ['waiting', null, null, T0 + 6000],
    'waiting again, the old grant cleared',
  );
  t.equal(
    await fleet.consents.put(again, entry('consent.request', {})),
    undefined,
    'an open wait is not reopened',
  );

  // The edge stops waiting (consent on its topic, a veto): the request leaves the queue and takes no grant.
  const closes = await Promise.all(
    [1, 2].map(() =>
      fleet.consents.close('ten-a', 'arm-1', request.intentDigest, entry('consent.closed', {})),
    ),
  );
  t.equal(closes.filter(Boolean).length, 1, 'closed once, audited once');
  t.same(await fleet.consents.listWaiting('ten-a', T0 + 5010), [], 'a closed request is not listed');
  t.equal(
    await fleet.consents.grant(
      'ten-a',
      'arm-1',
      request.intentDigest,
      { token, operatorId: 'alice', nowMs: T0 + 5010 },
      entry('consent.grant', {}),
    ),
    undefined,
    'nor granted',
  );
  const third = { ...record, createdAtMs: T0 + 7000, deadlineMs: T0 + 8000 };
  t.ok(await fleet.consents.put(third, entry('consent.request', {})), 'parked again, it waits again');
  await fleet.consents.grant(
    'ten-a',
    'arm-1',
    request.intentDigest,
    { token, operatorId: 'alice', nowMs: T0 + 7010 },
    entry('consent.grant', {}),
  );
  t.equal(
    await fleet.consents.close('ten-a', 'arm-1', request.intentDigest, entry('consent.closed', {})),
    undefined,
    'a granted request is not closed: the grant that won stays',
  );
  t.equal((await fleet.consents.get('ten-a', 'arm-1', request.intentDigest))?.state, 'granted');
}

t.test('SQLite fleet store', async (t) => {
  const store = new SqliteStore({ path: ':memory:' });
  t.teardown(() => store.close());
  await contract(t, store);
  await consentContract(t, store);
});

t.test('PostgreSQL fleet store', async (t) => {
  if (!(await requirePostgres(t))) return;
  const store = await openTestPostgres(t);
  await contract(t, store);
  await consentContract(t, store);
});

t.test(
  'PostgreSQL: concurrent uploads of one robot (pooled connections) store each record once, in order',
  async (t) => {
    if (!(await requirePostgres(t))) return;
    const a = await openTestPostgres(t);
    await a.createTenant({ id: 'ten-a', name: 'a', createdAtMs: T0 });
    const fa = await openFleetStore(a);
    const key = newApiKey('ten-a', 'edge', T0);
    await fa.addRobot(robot('arm-2', key.record.id), key.record, entry('robot', {}));
    const chain = edgeChain('arm-2', 40);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        fa.appendEdgeRecords('ten-a', 'arm-2', writes('arm-2', (i % 4) * 10, (i % 4) * 10 + 10, chain)),
      ),
    );
    t.ok(results.some((r) => r.status === 'accepted'));
    const stored = (await a.auditEntries(0, await a.auditSize())).filter(
      (e) => e.entry.type === 'edge.verdict',
    );
    const indexes = stored.map((e) => (e.entry.data.record as { index: number }).index);
    t.same(indexes, [...new Set(indexes)], 'no record stored twice');
    t.same(
      indexes,
      [...indexes].sort((x, y) => x - y),
      'in chain order',
    );
  },
);
