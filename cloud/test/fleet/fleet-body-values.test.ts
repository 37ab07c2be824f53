/**
 * The edge's fleet routes take at most MAX_EDGE_BODY_VALUES object members and array elements, counted before
 * the body is parsed: 1 MiB of `{}` in one record's evidence (340,000 values) held the event loop for
 * 240–800 ms per request before its chain was even looked at. A full batch of the gate's own records is far
 * below the limit and is stored; one value over the limit is refused 413 and stores nothing.
 */
import type { EdgeAuditRecord } from '@pentagate/protocol';
import t from 'tap';
import { MAX_EDGE_BODY_VALUES } from '../../src/app/json-body.js';
import { bearer, testCloud } from '../helpers/cloud-app.js';
import { digestOf, edgeChain, GENESIS } from '../helpers/edge-records.js';
import { testRobot } from '../helpers/fleet.js';
import { jsonValueCount } from '../helpers/json-values.js';

/** The first record of a chain with gate evidence of `elements` empty objects, so the body holds `total` values. */
function batchOf(total: number): { records: EdgeAuditRecord[] } {
  const [record] = edgeChain('arm-1', 1) as [EdgeAuditRecord];
  // the RISK gate of the five a signed verdict reports carries the evidence
  const gate = { vertex: 'RISK' as const, passed: true, violations: [], evidence: { a: [] as object[] } };
  const gates = record.verdict.gates.map((g) => (g.vertex === 'RISK' ? gate : g));
  const shell: { records: EdgeAuditRecord[] } = {
    records: [{ ...record, verdict: { ...record.verdict, gates } }],
  };
  gate.evidence.a = Array.from({ length: total - jsonValueCount(shell) }, () => ({}));
  const [first] = shell.records as [EdgeAuditRecord];
  return { records: [{ ...first, prevDigest: GENESIS }] };
}

t.test('a fleet upload with more values than the limit is refused before parsing', async (t) => {
  const cloud = await testCloud(t);
  const key = await testRobot(cloud, cloud.a, 'arm-1');
  const post = (body: unknown) =>
    cloud.app.inject({
      method: 'POST',
      url: '/api/v1/fleet/robots/arm-1/records',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const ack = async () =>
    (
      await cloud.app.inject({
        method: 'GET',
        url: '/api/v1/fleet/robots/arm-1/ack',
        headers: bearer(key),
      })
    ).json().acknowledged;

  const over = batchOf(MAX_EDGE_BODY_VALUES + 1);
  t.equal(jsonValueCount(over), MAX_EDGE_BODY_VALUES + 1);
  const size = await cloud.store.auditSize();
  const refused = await post(over);
  t.equal(refused.statusCode, 413);
  t.equal(refused.json().error.code, 'BODY_TOO_LARGE');
  t.match(refused.json().error.message, /expected at most 100000 object members and array elements/);
  t.equal(await ack(), 0, 'nothing stored');
  t.equal(await cloud.store.auditSize(), size + 1, 'one refusal entry');

  const at = batchOf(MAX_EDGE_BODY_VALUES);
  const taken = await post(at);
  t.equal(taken.statusCode, 200, 'at the limit the record is taken');
  t.equal(taken.json().acknowledged, 1);

  // A full batch of the gate's real records (about 65 values each) is far below the limit. Their commands
  // continue the one stored (seq 1 of epoch 1), as the cloud checks the robot's command history.
  let prev = digestOf((at.records as [EdgeAuditRecord])[0]);
  const full = edgeChain('arm-1', 500).map((r, i) => {
    const record = { ...r, index: 1 + i, prevDigest: prev, verdict: { ...r.verdict, commandSeq: 2 + i } };
    prev = digestOf(record);
    return record;
  });
  const shipped = await post({ records: full });
  t.equal(shipped.statusCode, 200, 'a batch of 500 records is taken');
  t.equal(shipped.json().acknowledged, 501);
});

t.test('the limit also covers the consent requests an edge posts', async (t) => {
  const cloud = await testCloud(t);
  const key = await testRobot(cloud, cloud.a, 'arm-1');
  const refused = await cloud.app.inject({
    method: 'POST',
    url: '/api/v1/fleet/robots/arm-1/consent-requests',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload: JSON.stringify({ padding: Array.from({ length: MAX_EDGE_BODY_VALUES }, () => 0) }),
  });
  t.equal(refused.statusCode, 413);
  t.equal(refused.json().error.code, 'BODY_TOO_LARGE');
});
