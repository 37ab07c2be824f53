/**
 * The intent rate limit (src/node/intent-rate-limit.ts). An outside review had a planner account publish ~600
 * intents a second that the gates vetoed, one ~7.6 KB audit record each: the outbox and the cloud's audit log
 * grew by over 100 MB a minute and a later STOP reached the cloud's live view late behind the backlog. Now the
 * node judges at most 50 a second (burst 100); the rest are refused unjudged as `INPUT.INTENT_RATE_LIMITED`
 * through the refusal summary, one outbox record per window. Telemetry, STOPs and consent are not limited.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { hasEdgeViolation, type MotorCommand, robotTopics, type VerdictEvent } from '@pentagate/protocol';
import pino from 'pino';
import type { MetricValueWithName } from 'prom-client';
import t from 'tap';
import { startEdgeRun } from '../../src/cli/edge-run.js';
import { edgeRunOptions } from '../../src/cli/edge-run-command.js';
import { EdgeNode } from '../../src/node/edge-node.js';
import { DEFAULT_MAX_INTENTS_PER_SECOND, IntentRateLimit } from '../../src/node/intent-rate-limit.js';
import type { EdgeMetrics } from '../../src/observability/edge-metrics.js';
import { EdgeMetrics as Metrics } from '../../src/observability/edge-metrics.js';
import { armFixture } from './helpers/arm-fixture.js';
import { freshArmCell } from './helpers/fresh-arm-cell.js';
import { tempEdgeRunFiles } from './helpers/edge-run-files.js';
import { connectClient } from './helpers/mqtt-clients.js';
import { RecordingTransport } from './helpers/recording-transport.js';
import { cli } from './helpers/run-edge-cli.js';
import { outboxIn } from './helpers/started-node.js';

const topics = robotTopics('r1');
const RATE_LIMITED = /^INPUT\.INTENT_RATE_LIMITED: /;
const SUMMARY = /^INPUT\.INTENT_RATE_LIMITED: (\d+) more refused from pentagate\/v1\/r1\/intent /;

/** `pentagate_edge_rejected_inputs_total{input="intent",reason="INTENT_RATE_LIMITED"}`. */
async function rateLimitedCount(metrics: EdgeMetrics): Promise<number> {
  const counter = metrics.registry.getSingleMetric('pentagate_edge_rejected_inputs_total');
  const values = (await counter?.get())?.values ?? [];
  return values
    .filter((v) => v.labels.input === 'intent' && v.labels.reason === 'INTENT_RATE_LIMITED')
    .reduce((sum, v) => sum + v.value, 0);
}

/** How many intents reached trapAndSign (the histogram's count). */
async function judgedCount(metrics: EdgeMetrics): Promise<number> {
  const histogram = metrics.registry.getSingleMetric('pentagate_edge_trap_and_sign_seconds');
  const values = ((await histogram?.get())?.values ?? []) as MetricValueWithName<string>[];
  return values.find((v) => v.metricName === 'pentagate_edge_trap_and_sign_seconds_count')?.value ?? 0;
}

t.test('the bucket: a full burst, then the rate, on an injected clock', async (t) => {
  let nowMs = 1_000;
  const bucket = new IntentRateLimit({ perSecond: 50, burst: 100, clock: () => nowMs });
  let taken = 0;
  for (let i = 0; i < 300; i++) if (bucket.take()) taken++;
  t.equal(taken, 100, 'a burst of 300 at one instant: the 100 the bucket holds');
  t.notOk(bucket.take(), 'empty');
  nowMs += 19;
  t.notOk(bucket.take(), '19 ms at 50 a second is not yet one token');
  nowMs += 1;
  t.ok(bucket.take(), '20 ms is one');
  t.notOk(bucket.take(), 'and only one');
  nowMs += 1_000;
  taken = 0;
  for (let i = 0; i < 300; i++) if (bucket.take()) taken++;
  t.equal(taken, 50, 'one second refills 50');
  nowMs += 60_000;
  t.equal(bucket.available(), 100, 'a long pause refills to the burst, no further');
  nowMs -= 5_000;
  t.equal(bucket.available(), 100, 'a clock going back adds nothing and takes nothing');
  taken = 0;
  for (let i = 0; i < 300; i++) if (bucket.take()) taken++;
  t.equal(taken, 100);

  // a steady stream at the rate is never refused: a 50 Hz cmd_vel for 10 s
  const steady = new IntentRateLimit({ clock: () => nowMs });
  let refused = 0;
  for (let i = 0; i < 500; i++) {
    nowMs += 20;
    if (!steady.take()) refused++;
  }
  t.equal(refused, 0, 'a 50 Hz stream is judged in full');
  t.equal(steady.perSecond, DEFAULT_MAX_INTENTS_PER_SECOND);
  t.equal(steady.burst, 100, 'the default burst is two seconds of the default rate');

  t.equal(new IntentRateLimit({ perSecond: 0 }).perSecond, 50, '0 = the default');
  t.equal(new IntentRateLimit({ perSecond: 200 }).burst, 400, 'the burst follows the rate');
  t.equal(new IntentRateLimit({ perSecond: 0.2 }).burst, 1, 'never less than one');
  t.throws(() => new IntentRateLimit({ perSecond: -1 }), RangeError);
  t.throws(() => new IntentRateLimit({ perSecond: 5, burst: 0 }), RangeError);
});

t.test('over the limit, intents are refused unjudged; telemetry, STOPs and consent are not', async (t) => {
  const fixture = armFixture();
  const transport = new RecordingTransport();
  const { outbox } = await outboxIn(t);
  const metrics = new Metrics();
  let monoMs = 0;
  const node = new EdgeNode({
    robotId: 'r1',
    gate: fixture.makeGate(),
    transport,
    outbox,
    metrics,
    logger: pino({ level: 'silent' }),
    refusalWindowMs: 60_000,
    maxIntentsPerSecond: 1,
    intentBurst: 2,
    intentRateClock: () => monoMs,
  });
  node.start();
  t.teardown(() => node.stop());
  for (const frame of fixture.passingFrames(1, Date.now()))
    transport.deliver(topics.telemetry(frame.source), frame);
  for (let i = 0; i < 10; i++) transport.deliver(topics.intent, fixture.smallMove(`m${i}`));
  // garbage on the intent topic takes a token too (it is counted before it is parsed)
  transport.deliver(topics.intent, 'not json');
  await node.settled();
  const judged = transport.verdicts().filter((v) => v.intentId !== undefined);
  t.same(
    judged.map((v) => [v.intentId, v.outcome]),
    [
      ['m0', 'signed'],
      ['m1', 'signed'],
    ],
    'the burst of two is judged',
  );
  const refusals = transport.verdicts().filter((v) => RATE_LIMITED.test(v.violations[0] ?? ''));
  t.equal(refusals.length, 1, 'the first refusal is published; the other nine are counted');
  t.equal(refusals[0]?.outcome, 'rejected-input');
  t.equal(refusals[0]?.intentId, undefined, 'not bound to an intent (so it is summarised)');
  t.ok(hasEdgeViolation(refusals[0]?.violations ?? [], 'INPUT.INTENT_RATE_LIMITED'), 'a registered code');
  t.match(
    refusals[0]?.violations[0],
    /more than 1 intents a second \(burst 2\) on pentagate\/v1\/r1\/intent/,
  );
  t.equal(await rateLimitedCount(metrics), 9, 'each refusal counted in the rejected-input metric');
  t.equal(outbox.count, 3, 'two verdicts and one refusal in the outbox, not eleven');

  // a person steps in: the running motion is stopped at once, though the bucket is empty
  const before = transport.published.length;
  transport.deliver(topics.telemetry('proximity'), fixture.proximityFrame(2, Date.now(), 0.3));
  const first = transport.published[before];
  t.equal(first?.kind === 'cmd' && first.command.setpoints.kind, 'stop', 'the STOP leaves at once');
  // consent is not limited: a bad token gets its own consent verdict, not a rate-limit refusal
  transport.deliver(topics.consent, { payloadType: 'x', payload: 'x', signatures: [] });
  await node.settled();
  const last = transport.verdicts().at(-1);
  t.notMatch(last?.violations[0] ?? '', RATE_LIMITED, 'consent went to the gate');
  t.equal(await rateLimitedCount(metrics), 9, 'nothing else counted as rate-limited');

  monoMs += 1_000;
  transport.deliver(topics.intent, fixture.smallMove('after-refill'));
  await node.settled();
  t.ok(
    transport.verdicts().some((v) => v.intentId === 'after-refill'),
    'one second later one intent is judged again',
  );

  await node.stop();
  const summary = transport.verdicts().find((v) => SUMMARY.test(v.violations[0] ?? ''));
  t.match(
    summary?.violations[0],
    /^INPUT\.INTENT_RATE_LIMITED: 8 more refused from pentagate\/v1\/r1\/intent/,
  );
});

t.test('a flood over the real broker costs a bounded number of records', async (t) => {
  const windowMs = 2_000;
  // the robot account stands in for a planner that floods (it may publish intents)
  const { fixture, edge, inbox, robot: planner } = await freshArmCell(t, { refusalWindowMs: windowMs });
  const verdicts: VerdictEvent[] = [];
  planner.on('message', (topic, payload) => {
    if (topic === topics.verdict) verdicts.push(JSON.parse(payload.toString('utf8')) as VerdictEvent);
  });

  // 300 vetoed 40-point trajectories (no telemetry yet: every gate that needs a frame vetoes), all at once
  const flood = Array.from({ length: 300 }, (_, i) => JSON.stringify(fixture.smallMove(`flood-${i}`, 40)));
  const recordsBefore = edge.outbox.count;
  const startedMs = performance.now();
  await Promise.all(flood.map((body) => planner.publishAsync(topics.intent, body, { qos: 1 })));
  for (let i = 0; i < 4000; i++) {
    if ((await judgedCount(edge.metrics)) + (await rateLimitedCount(edge.metrics)) >= 300) break;
    await sleep(5);
  }
  const elapsedS = (performance.now() - startedMs) / 1000;
  await edge.node.settled();
  const judged = await judgedCount(edge.metrics);
  const limited = await rateLimitedCount(edge.metrics);
  t.equal(
    judged + limited,
    300,
    `every intent judged or refused (${judged} judged in ${elapsedS.toFixed(2)} s)`,
  );
  t.ok(judged >= 100, 'the burst is judged');
  const bound = 100 + Math.ceil(50 * elapsedS) + 1;
  t.ok(judged <= bound, `at most the burst and what refilled meanwhile were judged (${judged} <= ${bound})`);
  t.ok(limited >= 300 - bound, `the rest were refused (${limited})`);
  const windows = Math.ceil((elapsedS * 1000) / windowMs) + 1;
  const grown = edge.outbox.count - recordsBefore;
  t.ok(
    grown <= judged + 2 * windows,
    `the outbox grew by the verdicts judged and a record or two per window (${grown}), not by ${300 - judged} refusals`,
  );
  for (let i = 0; i < 200; i++)
    if (verdicts.filter((v) => v.intentId?.startsWith('flood-')).length < judged) await sleep(10);
  const flooded = verdicts.filter((v) => v.intentId?.startsWith('flood-'));
  t.equal(flooded.length, judged, 'one verdict per judged intent');
  t.ok(
    flooded.every((v) => v.outcome === 'vetoed'),
    'judged as usual: vetoed without telemetry',
  );

  // the refusals add up in their summary once the window closes (the node's timer flushes it)
  const accounted = () =>
    verdicts.reduce((sum, v) => {
      const line = v.violations[0] ?? '';
      const summary = SUMMARY.exec(line);
      return sum + (summary ? Number(summary[1]) : RATE_LIMITED.test(line) ? 1 : 0);
    }, 0);
  for (let i = 0; i < 1000 && accounted() < limited; i++) await sleep(10);
  t.equal(accounted(), limited, 'every refusal is in a published refusal or a summary');
  t.ok(
    verdicts.some((v) => SUMMARY.test(v.violations[0] ?? '')),
    'the flood is summarised',
  );

  // by now the bucket has refilled: a legitimate move on good telemetry is judged and signed
  for (const frame of fixture.passingFrames(1, Date.now()))
    await planner.publishAsync(topics.telemetry(frame.source), JSON.stringify(frame), { qos: 1 });
  await planner.publishAsync(topics.intent, JSON.stringify(fixture.smallMove('legit')), { qos: 1 });
  const verdict = await inbox.next<VerdictEvent>(topics.verdict, (v) => v.intentId === 'legit');
  t.equal(verdict.outcome, 'signed', 'the legitimate intent is judged normally');
  const command = await inbox.next<MotorCommand>(topics.cmd, (c) => c.intentId === 'legit');
  t.equal(command.setpoints.kind, 'joint', 'and its command is published');
});

t.test('edge run --max-intents-per-second: validated, and passed to the node', async (t) => {
  const f = await tempEdgeRunFiles(t, 'pentagate-intent-rate-run-');
  const base = f.runArgs;
  for (const bad of ['abc', '1.5', '-1', '50/s', '10001', '']) {
    const result = await cli([...base, `--max-intents-per-second=${bad}`, '--mqtt', 'embedded:0']);
    t.equal(result.code, 2, `${JSON.stringify(bad)}: bad usage`);
    t.match(
      result.err,
      /--max-intents-per-second: expected a whole number of intents a second, 0-10000 \(0 = the default, 50\), got /,
    );
    t.equal(result.err.split('\n').length, 1, `${JSON.stringify(bad)}: one line`);
  }
  const args = (rate?: string) =>
    f.parsedRunArgs(rate !== undefined ? { 'max-intents-per-second': rate } : {});
  t.equal((await edgeRunOptions(args())).maxIntentsPerSecond, undefined, 'absent: the default');
  t.equal((await edgeRunOptions(args('0'))).maxIntentsPerSecond, undefined, '0: the default');
  const options = await edgeRunOptions(args('1'));
  t.equal(options.maxIntentsPerSecond, 1);

  const started = await startEdgeRun(options);
  t.teardown(() => started.stop());
  const robot = await connectClient(started.broker?.url ?? '', {
    username: 'robot-r1',
    password: 'robot-pw',
  });
  t.teardown(() => robot.endAsync(true));
  for (let i = 0; i < 6; i++)
    await robot.publishAsync(topics.intent, JSON.stringify(f.fixture.smallMove(`run-${i}`)), { qos: 1 });
  for (let i = 0; i < 1000 && (await rateLimitedCount(started.edge.metrics)) < 3; i++) await sleep(5);
  t.ok(
    (await rateLimitedCount(started.edge.metrics)) >= 3,
    'at 1 a second (burst 2), most of 6 intents sent at once are refused',
  );
});
