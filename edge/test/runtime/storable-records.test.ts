/**
 * Verdicts quote what came from outside, and their outbox records must still be records the cloud stores:
 * the cloud reads a batch as strict JSON without U+0000 or lone surrogates (PostgreSQL text, RFC 7493 §2.1)
 * and refuses the whole batch otherwise — again on every retry, so nothing after it would ever ship. One
 * MQTT message from an account that may publish consent or intents did that: a NUL byte quoted in the
 * MALFORMED verdict, or a long member name whose violation was cut inside a surrogate pair (which RFC 8785
 * cannot even encode: that append failed after taking its index, leaving a hole in the chain and the outbox
 * reported failed).
 */
import t from 'tap';
import {
  EdgeRecordBatchSchema,
  readJson,
  robotTopics,
  schemaIssues,
  type VerdictEvent,
} from '@pentagate/protocol';
import { outboxIn, startedNode } from './helpers/started-node.js';

const topics = robotTopics('r1');

/** The batch as the cloud's body parser and schema read it: the problem, or undefined. */
function cloudRefusal(records: unknown[]): string | undefined {
  try {
    const body = readJson(JSON.stringify({ records }), { what: 'request body', refuseNul: true });
    const issue = schemaIssues(EdgeRecordBatchSchema, body)[0];
    return issue && `${issue.path}: ${issue.message}`;
  } catch (err) {
    return (err as Error).message;
  }
}

t.test('hostile MQTT payloads leave records the cloud stores, in an unbroken chain', async (t) => {
  const { node, transport, fixture, outbox } = await startedNode(t, { refusalWindowMs: 1 });
  transport.deliver(topics.consent, new TextEncoder().encode('\u0000'));
  await node.settled();
  // the violation quotes the member name and is cut at 1024 characters, inside one of the emoji
  transport.deliver(topics.intent, {
    ...fixture.smallMove('m1'),
    [`${'a'.repeat(999)}${'😀'.repeat(10)}`]: 1,
  });
  await node.settled();
  transport.deliver(topics.intent, fixture.smallMove('m2'));
  await node.settled();

  const records = await outbox.read(0, 10);
  t.same(
    records.map((r) => r.index),
    [0, 1, 2],
    'every verdict has its record, indexes without a hole',
  );
  t.equal(cloudRefusal(records), undefined, 'the cloud takes the batch');
  t.match(records[0]?.verdict.violations[0], /^INPUT\.MALFORMED: .*\uFFFD/, 'U+0000 shown as U+FFFD');
  t.equal(node.health().checks.outbox, 'ok');
});

t.test('a verdict the outbox cannot encode takes no index', async (t) => {
  const { outbox } = await outboxIn(t);
  const base: VerdictEvent = { v: 1, robotId: 'r1', outcome: 'vetoed', atMs: 1, violations: [], gates: [] };
  await outbox.append(base);
  const broken = {
    ...base,
    gates: [{ vertex: 'RISK', passed: false, violations: [], evidence: { n: 10n } }],
  } as unknown as VerdictEvent;
  await t.rejects(outbox.append(broken));
  const nonFinite = {
    ...base,
    gates: [{ vertex: 'RISK', passed: false, violations: [], evidence: { d: Number.NaN } }],
  } as VerdictEvent;
  await outbox.append(nonFinite);
  await outbox.append(base);
  const records = await outbox.read(0, 10);
  t.same(
    records.map((r) => r.index),
    [0, 1, 2],
    'no hole where the unencodable one was refused',
  );
  t.same(records[1]?.verdict.gates[0]?.evidence, { d: null }, 'a non-finite number is recorded as null');
});
