/**
 * `GET /api/v1/audit/entries` reads the caller's tenant's entries through the tenant's index, however much
 * other tenants wrote since. It used to scan the last 2,000 positions of the shared log per call, keeping
 * the caller's: after another tenant's edge had shipped 300 records of ~1 MB, each call by tenant B's
 * auditor took 3.6 s of event loop and ~600 MB of heap (six at once: 21 s), and B's own entries could only
 * be reached by paging through empty windows of A's. Over a real socket.
 */
import t from 'tap';
import { httpCaller, registration, testCloud } from '../helpers/cloud-app.js';
import { edgeChain } from '../helpers/edge-records.js';
import { testRobot } from '../helpers/fleet.js';

t.test(
  "a tenant's audit page holds its own entries however much another tenant wrote after them",
  async (t) => {
    const cloud = await testCloud(t);
    const url = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
    const call = httpCaller(url);
    for (const name of ['b-one', 'b-two']) {
      t.equal(
        (await call(cloud.b.keys.agent, 'POST', '/api/v1/agentgate/register', registration(name))).status,
        201,
      );
    }
    const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
    const chain = edgeChain('arm-1', 2500);
    for (let from = 0; from < chain.length; from += 500) {
      const res = await call(edgeKey, 'POST', '/api/v1/fleet/robots/arm-1/records', {
        records: chain.slice(from, from + 500),
      });
      t.equal(res.status, 200, `a's edge ships records ${from}..${from + 499}`);
    }

    const page = async (query: string) => {
      const res = await call(cloud.b.keys.auditor, 'GET', `/api/v1/audit/entries${query}`);
      t.equal(res.status, 200);
      return (await res.json()) as {
        entries: { index: number; tenantId?: string; type: string }[];
        next: number | null;
      };
    };
    const first = await page('?limit=2');
    t.same(
      first.entries.map((e) => e.type),
      ['agent.registered', 'agent.registered'],
      "b's first page holds b's newest entries, not an empty window of a's",
    );
    t.ok(first.entries.every((e) => e.tenantId === cloud.b.id));
    t.type(first.next, 'number');
    const rest = await page(`?limit=200&before=${first.next}`);
    t.ok(rest.entries.length > 0, 'the next page continues with older entries of b');
    t.ok(rest.entries.every((e) => e.tenantId === cloud.b.id && e.index < first.entries[1]!.index));
    t.equal(rest.next, null, 'and says when none is left');
  },
);
