/**
 * A page of audit entries is bounded by bytes as well as by count (cloud/src/audit/audit-page.ts). One edge
 * key can make each of its entries about 1 MiB (a verdict of 1,024 violation texts of 1 KiB); a page of 200
 * such entries (`/api/v1/audit/entries`) or 500 (`/api/v1/kernel/audit/events`, agent scope included) was
 * read, parsed and serialised whole: measured against `cloud serve`, 28 such entries made a 29 MB answer,
 * and four of those at once took the process from 325 to 835 MB. Paging still reaches every entry once.
 */
import type { EdgeAuditRecord } from '@pentagate/protocol';
import t from 'tap';
import { MAX_AUDIT_PAGE_BYTES } from '../../src/audit/audit-page.js';
import { bearer, testCloud } from '../helpers/cloud-app.js';
import { edgeChain } from '../helpers/edge-records.js';
import { testRobot } from '../helpers/fleet.js';

const RECORDS = 10;

/** A chain of `count` records of `robotId`, each a vetoed verdict of about 1 MiB. */
function heavyChain(robotId: string, count: number): EdgeAuditRecord[] {
  return edgeChain(robotId, count, undefined, (robot, index, atMs) => ({
    v: 1,
    robotId: robot,
    intentId: `intent-${index}`,
    outcome: 'vetoed',
    atMs,
    violations: Array.from({ length: 1020 }, (_, i) => `RISK.V${i}: ${'x'.repeat(1000)}`),
    gates: [],
  }));
}

t.test('audit pages stay within their byte bound and still reach every entry', async (t) => {
  const cloud = await testCloud(t);
  const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
  for (const record of heavyChain('arm-1', RECORDS)) {
    const res = await cloud.app.inject({
      method: 'POST',
      url: '/api/v1/fleet/robots/arm-1/records',
      headers: bearer(edgeKey),
      payload: { records: [record] },
    });
    t.equal(res.statusCode, 200, `record ${record.index} shipped`);
  }
  // one entry may take the page past the bound; no more than that
  const bound = MAX_AUDIT_PAGE_BYTES + 1.1 * 1024 * 1024;
  const get = async (key: string, url: string) => {
    const res = await cloud.app.inject({ method: 'GET', url, headers: bearer(key) });
    t.equal(res.statusCode, 200, url);
    t.ok(res.rawPayload.length <= bound, `${url}: ${res.rawPayload.length} bytes, at most ${bound}`);
    return res.json();
  };

  const seen: number[] = [];
  let before = '';
  let pages = 0;
  for (;;) {
    const page = await get(
      cloud.a.keys.auditor,
      `/api/v1/audit/entries?type=edge.verdict&limit=200${before}`,
    );
    pages++;
    seen.push(...page.entries.map((e: { index: number }) => e.index));
    if (page.next === null) break;
    before = `&before=${page.next}`;
  }
  t.ok(pages > 1, `the entries route cut its answer into ${pages} pages`);
  t.equal(seen.length, RECORDS, 'every edge entry, each once, newest first');
  t.same(
    seen,
    [...seen].sort((a, b) => b - a),
  );
  t.equal(new Set(seen).size, RECORDS);

  const events: number[] = [];
  let cursor = '';
  pages = 0;
  for (;;) {
    const page = await get(
      cloud.a.keys.agent,
      `/api/v1/kernel/audit/events?type=edge.verdict&limit=500${cursor}`,
    );
    pages++;
    events.push(...page.events.map((e: { index: number }) => e.index));
    if (page.nextCursor === undefined) break;
    cursor = `&cursor=${page.nextCursor}`;
  }
  t.ok(pages > 1, `the events route cut its answer into ${pages} pages`);
  t.same(events, [...seen].reverse(), 'the same entries, in log order');
});
