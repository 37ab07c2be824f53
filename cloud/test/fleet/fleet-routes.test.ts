/**
 * The fleet routes over a real app and store: an edge ships its chain in batches with its own key; resends,
 * replays and reordered batches store each record once; a gap, a rewritten record, a record of another
 * robot and another robot's key are refused, audited and raised as alarms; the live view streams verdict
 * summaries as Server-Sent Events over a real socket.
 */
import { get } from 'node:http';
import t from 'tap';
import { bearer, testCloud } from '../helpers/cloud-app.js';
import { edgeChain } from '../helpers/edge-records.js';
import { testRobot } from '../helpers/fleet.js';

const RECORDS = (robotId: string) => `/api/v1/fleet/robots/${robotId}/records`;

t.test('an edge ships its chain once, whatever the order and repetition of batches', async (t) => {
  const cloud = await testCloud(t);
  const key = await testRobot(cloud, cloud.a, 'arm-1');
  const chain = edgeChain('arm-1', 30);
  const post = (from: number, to: number) =>
    cloud.app.inject({
      method: 'POST',
      url: RECORDS('arm-1'),
      headers: bearer(key),
      payload: { records: chain.slice(from, to) },
    });

  const ahead = await post(10, 20);
  t.equal(ahead.statusCode, 409, 'a batch ahead of the stored head is refused');
  t.equal(ahead.json().error.code, 'EDGE_CHAIN_GAP');
  t.equal(ahead.json().error.details.acknowledged, 0, 'and says where to resume');
  const first = await post(0, 10);
  t.same([first.statusCode, first.json().acknowledged, first.json().stored], [200, 10, 10]);
  t.same((await post(10, 20)).json().acknowledged, 20, 'the reordered batch is taken once its turn comes');
  t.same(
    (await post(0, 10)).json(),
    {
      ...first.json(),
      acknowledged: 20,
      headDigest: (await post(10, 20)).json().headDigest,
      stored: 0,
      duplicates: 10,
    },
    'a replay stores nothing',
  );
  t.same((await post(15, 30)).json().stored, 10, 'an overlapping resend stores only the new records');

  const ack = await cloud.app.inject({
    method: 'GET',
    url: '/api/v1/fleet/robots/arm-1/ack',
    headers: bearer(key),
  });
  t.equal(ack.json().acknowledged, 30);
  const entries = await cloud.store.auditEntries(0, await cloud.store.auditSize());
  const shipped = entries
    .filter((e) => e.entry.type === 'edge.verdict')
    .map((e) => (e.entry.data.record as { index: number }).index);
  t.same(
    shipped,
    Array.from({ length: 30 }, (_, i) => i),
    'every record is in the log exactly once, in order',
  );
  const robots = await cloud.app.inject({
    method: 'GET',
    url: '/api/v1/fleet/robots',
    headers: bearer(cloud.a.keys.operator),
  });
  t.same(
    robots.json().robots.map((r: { robotId: string; acknowledged: number }) => [r.robotId, r.acknowledged]),
    [['arm-1', 30]],
  );
  t.notMatch(robots.body, /pgk_/, 'the registry listing never shows a key');
});

t.test('forged, altered and misdirected batches are refused, audited and raised as alarms', async (t) => {
  const cloud = await testCloud(t);
  const key1 = await testRobot(cloud, cloud.a, 'arm-1');
  const key2 = await testRobot(cloud, cloud.a, 'arm-2');
  const chain = edgeChain('arm-1', 6);
  const post = (key: string, robotId: string, records: unknown[]) =>
    cloud.app.inject({ method: 'POST', url: RECORDS(robotId), headers: bearer(key), payload: { records } });
  t.equal((await post(key1, 'arm-1', chain.slice(0, 4))).statusCode, 200);
  const sizeBefore = await cloud.store.auditSize();

  const altered = structuredClone(chain.slice(2, 5));
  altered[0]!.verdict.intentId = 'intent-rewritten';
  const rewrite = await post(key1, 'arm-1', altered);
  t.same(
    [rewrite.statusCode, rewrite.json().error.code],
    [409, 'EDGE_CHAIN_BROKEN'],
    'a rewritten record is refused',
  );
  const forged = structuredClone(chain.slice(4, 6));
  forged[0]!.prevDigest = 'a'.repeat(64);
  const fork = await post(key1, 'arm-1', forged);
  t.same(
    [fork.statusCode, fork.json().error.code],
    [409, 'EDGE_CHAIN_BROKEN'],
    'a record not chained to the head is refused',
  );
  const otherKey = await post(key2, 'arm-1', chain.slice(4, 6));
  t.same(
    [otherKey.statusCode, otherKey.json().error.code],
    [403, 'ROBOT_FORBIDDEN'],
    "another robot's key is refused",
  );
  const wrongRobot = await post(key2, 'arm-2', edgeChain('arm-1', 1));
  t.same(
    [wrongRobot.statusCode, wrongRobot.json().error.code],
    [409, 'EDGE_CHAIN_BROKEN'],
    'a record of another robot is refused',
  );
  const unknownKey = await post(`pgk_${'A'.repeat(43)}`, 'arm-1', chain.slice(4, 6));
  t.equal(unknownKey.statusCode, 401, 'a forged credential is refused');
  const operator = await post(cloud.a.keys.admin, 'arm-1', chain.slice(4, 6));
  t.equal(operator.statusCode, 403, 'only an edge key ships records');
  const otherTenant = await post(key1, 'arm-1', chain.slice(4, 6));
  t.equal(otherTenant.statusCode, 200, 'the genuine continuation is still taken afterwards');

  const entries = (await cloud.store.auditEntries(sizeBefore, await cloud.store.auditSize())).map(
    (e) => e.entry,
  );
  t.same(
    entries.filter((e) => e.type === 'refusal').map((e) => e.data.code),
    [
      'EDGE_CHAIN_BROKEN',
      'EDGE_CHAIN_BROKEN',
      'ROBOT_FORBIDDEN',
      'EDGE_CHAIN_BROKEN',
      'UNAUTHENTICATED',
      'SCOPE_FORBIDDEN',
    ],
    'every refusal is in the audit log',
  );
  const metrics = await cloud.app.inject({ method: 'GET', url: '/metrics' });
  t.match(metrics.body, /pentagate_fleet_chain_alarms_total\{kind="fork"\} 2/);
  t.match(metrics.body, /pentagate_fleet_chain_alarms_total\{kind="wrong-credential"\} 1/);
  t.match(metrics.body, /pentagate_fleet_chain_alarms_total\{kind="wrong-robot"\} 1/);
});

t.test('the live view streams verdict summaries per robot as Server-Sent Events', async (t) => {
  const cloud = await testCloud(t);
  const key = await testRobot(cloud, cloud.a, 'arm-1');
  await testRobot(cloud, cloud.a, 'arm-2');
  const url = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const received: string[] = [];
  const opened = new Promise<() => void>((resolve, reject) => {
    const req = get(
      `${url}/api/v1/fleet/live?robot=arm-1`,
      { headers: bearer(cloud.a.keys.operator) },
      (res) => {
        t.equal(res.headers['content-type'], 'text/event-stream; charset=utf-8');
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => received.push(chunk));
        resolve(() => req.destroy());
      },
    );
    req.on('error', reject);
  });
  const close = await opened;
  await new Promise((r) => setTimeout(r, 50));
  const chain = edgeChain('arm-1', 3);
  await cloud.app.inject({
    method: 'POST',
    url: RECORDS('arm-1'),
    headers: bearer(key),
    payload: { records: chain },
  });
  const bad = structuredClone(chain);
  bad[1]!.verdict.intentId = 'intent-rewritten';
  await cloud.app.inject({
    method: 'POST',
    url: RECORDS('arm-1'),
    headers: bearer(key),
    payload: { records: bad },
  });
  await new Promise((r) => setTimeout(r, 100));
  close();
  const text = received.join('');
  const events = text.split('\n\n').filter((block) => block.startsWith('event:'));
  t.same(
    events.map((e) => e.split('\n')[0]),
    ['event: verdict', 'event: verdict', 'event: verdict', 'event: alarm'],
    'three verdicts then the alarm',
  );
  const first = JSON.parse(
    events[0]!
      .split('\n')
      .find((l) => l.startsWith('data: '))!
      .slice(6),
  );
  t.match(first, {
    type: 'verdict',
    robotId: 'arm-1',
    recordIndex: 0,
    outcome: 'signed',
    commandSeq: 1,
    commandEpoch: 1,
  });
  const denied = await cloud.app.inject({ method: 'GET', url: '/api/v1/fleet/live', headers: bearer(key) });
  t.equal(denied.statusCode, 403, 'an edge key does not open the live view');
});
