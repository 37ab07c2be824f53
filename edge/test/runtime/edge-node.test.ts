import { closeSync } from 'node:fs';
import { readdir, readlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { robotTopics } from '@pentagate/protocol';
import type { EdgeGatePort } from '../../src/node/edge-gate-port.js';
import { armFixture } from './helpers/arm-fixture.js';
import { startedNode } from './helpers/started-node.js';

const topics = robotTopics('r1');

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000 && !condition(); i++) await sleep(5);
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

t.test('a STOP leaves before the telemetry handler returns, ahead of its verdict', async (t) => {
  const { node, transport, fixture } = await startedNode(t);
  for (const frame of fixture.passingFrames(1, Date.now()))
    transport.deliver(topics.telemetry(frame.source), frame);
  transport.deliver(topics.intent, fixture.smallMove('m1'));
  await node.settled();
  const before = transport.published.length;
  transport.deliver(topics.telemetry('proximity'), fixture.proximityFrame(2, Date.now(), 0.3));
  const first = transport.published[before];
  t.equal(first?.kind === 'cmd' && first.command.setpoints.kind, 'stop', 'published synchronously, first');
  await node.settled();
  t.equal(transport.verdicts().at(-1)?.outcome, 'stopped');
});

t.test(
  'once a STOP is out, the older motion command and its signed verdict are never published',
  async (t) => {
    const { node, transport, fixture, outbox } = await startedNode(t);
    for (const frame of fixture.passingFrames(1, Date.now()))
      transport.deliver(topics.telemetry(frame.source), frame);
    await node.settled();
    // The intent is signed and waits for its outbox sync; the person arrives before the sync completes.
    transport.deliver(topics.intent, fixture.smallMove('m1'));
    await new Promise((resolve) => setImmediate(resolve)); // the intent's turn (intent-queue.ts)
    transport.deliver(topics.telemetry('proximity'), fixture.proximityFrame(2, Date.now(), 0.3));
    await node.settled();
    const stream = transport.published.map((p) =>
      p.kind === 'cmd' ? `cmd:${p.command.setpoints.kind}` : `verdict:${p.verdict.outcome}`,
    );
    const stopAt = stream.indexOf('cmd:stop');
    t.ok(stopAt >= 0, 'the STOP is out');
    t.same(
      stream.slice(stopAt).filter((x) => x === 'cmd:joint' || x === 'verdict:signed'),
      [],
      `nothing older after the STOP (${stream.join(', ')})`,
    );
    const outcomes = (await outbox.read(0, 10)).map((r) => r.verdict.outcome);
    t.same(outcomes, ['signed', 'stopped'], 'the outbox keeps both decisions, in the order they were made');
  },
);

t.test('a proximity frame behind a burst of intents is judged before them (intent-queue.ts)', async (t) => {
  const { node, transport, fixture } = await startedNode(t);
  for (const frame of fixture.passingFrames(1, Date.now()))
    transport.deliver(topics.telemetry(frame.source), frame);
  transport.deliver(topics.intent, fixture.smallMove('m1'));
  await node.settled();
  t.equal(transport.commands()[0]?.intentId, 'm1', 'a motion runs');
  // Twenty intents, then the person, in one burst (as one TCP read delivers them): the STOP is out before
  // the first of them is judged, and each is then judged with the person seen, so none is signed.
  const burst = Array.from({ length: 20 }, (_, i) => `b${i}`);
  for (const id of burst) transport.deliver(topics.intent, fixture.smallMove(id));
  const before = transport.published.length;
  transport.deliver(topics.telemetry('proximity'), fixture.proximityFrame(2, Date.now(), 0.3));
  const first = transport.published[before];
  t.equal(first?.kind === 'cmd' && first.command.setpoints.kind, 'stop', 'the STOP, at once');
  await node.settled();
  t.same(
    transport.commands().filter((c) => burst.includes(c.intentId)),
    [],
    'no intent of the burst was signed',
  );
  t.ok(
    transport
      .verdicts()
      .some((v) => v.outcome === 'vetoed' && /RISK\.HUMAN_IN_RADIUS/.test(v.violations.join())),
    'they were vetoed for the person',
  );
});

t.test('the watchdog stops a motion whose proximity source goes silent', async (t) => {
  const fixture = armFixture({ fastSourceMaxAgeMs: 200 });
  const { node, transport } = await startedNode(t, { fixture, monitorPeriodMs: 10 });
  for (const frame of fixture.passingFrames(1, Date.now()))
    transport.deliver(topics.telemetry(frame.source), frame);
  transport.deliver(topics.intent, fixture.smallMove('m1'));
  await until(() => transport.commands().length === 1, 'the motion command');
  // No more telemetry: after maxAgeMs the frames are stale and the watchdog must stop the arm.
  await until(() => transport.commands().length === 2, 'the watchdog STOP');
  t.equal(transport.commands()[1]?.setpoints.kind, 'stop');
  await node.settled();
  t.match(transport.verdicts().at(-1), { outcome: 'stopped', violations: [/STALE_DATA/] });
});

t.test('a motion command is withheld and the robot stopped when the outbox cannot record it', async (t) => {
  const { node, transport, fixture, path } = await startedNode(t);
  for (const frame of fixture.passingFrames(1, Date.now()))
    transport.deliver(topics.telemetry(frame.source), frame);
  for (const fd of await readdir('/proc/self/fd')) {
    if ((await readlink(`/proc/self/fd/${fd}`).catch(() => '')) === path) closeSync(Number(fd));
  }
  transport.deliver(topics.intent, fixture.smallMove('m1'));
  await node.settled();
  const kinds = transport.commands().map((c) => c.setpoints.kind);
  t.same(kinds, ['stop'], 'no motion command left the edge; a STOP did');
  t.match(transport.verdicts().at(-1), {
    outcome: 'stopped',
    violations: [/^EDGE\.OUTBOX_FAILED: command seq \d+ withheld/],
  });
  t.match(node.health(), { healthy: false, checks: { outbox: /^failed: / } });
});

t.test('a wait for consent turns into a consent-expired verdict on the timer', async (t) => {
  const fixture = armFixture({ consentTimeoutMs: 50 });
  const { transport } = await startedNode(t, { fixture, consentCheckPeriodMs: 10 });
  for (const frame of fixture.passingFrames(1, Date.now()))
    transport.deliver(topics.telemetry(frame.source), frame);
  const heavy = fixture.smallMove('heavy');
  for (const p of heavy.kind === 'joint-trajectory' ? heavy.points : [])
    p.effortsNm = [1, 120, 12, 2, 1, 0.5];
  transport.deliver(topics.intent, heavy);
  await until(() => transport.verdicts().some((v) => v.outcome === 'consent-expired'), 'the expiry');
  t.same(
    transport.verdicts().map((v) => v.outcome),
    ['awaiting-consent', 'consent-expired'],
  );
  t.same(transport.commands(), [], 'nothing was signed');
});

t.test('messages on topics the node does not serve get a rejected-input verdict', async (t) => {
  const { node, transport } = await startedNode(t);
  transport.deliver('pentagate/v1/r2/intent', '{}');
  transport.deliver('pentagate/v1/r1/cmd', '{}');
  transport.deliver('elsewhere', '{}');
  transport.deliver(topics.intent, new Uint8Array([0xff, 0xfe]));
  await node.settled();
  t.same(
    transport.verdicts().map((v) => v.violations[0]?.split(':')[0]),
    ['INPUT.UNKNOWN_TOPIC', 'INPUT.UNKNOWN_TOPIC', 'INPUT.UNKNOWN_TOPIC', 'INPUT.MALFORMED'],
  );
});

t.test('a gate that throws refuses the input and the node goes on', async (t) => {
  const fixture = armFixture();
  const real = fixture.makeGate();
  let throwOnce = true;
  const gate: EdgeGatePort = {
    ingestTelemetry: (f, a, s) => real.ingestTelemetry(f, a, s),
    unreadableTelemetry: (s, a) => real.unreadableTelemetry(s, a),
    trapAndSign: (i, n) => {
      if (throwOnce) {
        throwOnce = false;
        throw new Error('kinematics table corrupted');
      }
      return real.trapAndSign(i, n);
    },
    submitConsent: (e, n) => real.submitConsent(e, n),
    expireConsents: (n) => real.expireConsents(n),
    protectiveStop: (r, n) => real.protectiveStop(r, n),
    monitor: (n) => real.monitor(n),
  };
  const { node, transport } = await startedNode(t, { fixture, gate });
  for (const frame of fixture.passingFrames(1, Date.now()))
    transport.deliver(topics.telemetry(frame.source), frame);
  transport.deliver(topics.intent, fixture.smallMove('m1'));
  transport.deliver(topics.intent, fixture.smallMove('m2'));
  await node.settled();
  t.match(transport.verdicts()[0], {
    outcome: 'rejected-input',
    violations: ['INPUT.GATE_FAULT: kinematics table corrupted'],
  });
  t.equal(transport.commands()[0]?.intentId, 'm2', 'the next intent is handled normally');
});
