/**
 * Over the real embedded broker: a sensor that is live but sends frames the edge cannot use — not JSON
 * (`NaN` as a C driver prints it), a negative distance, a state of charge above 1, a frame naming another
 * source — withdraws that source's latest frame at once. The last good "nobody there" no longer decides
 * moves, and a running motion is stopped when the source is one it is re-checked against (DESIGN: stale or
 * missing proximity counts as a human present);
 * before, it went on deciding until it aged out. The next good frame makes the source usable again.
 *
 * An authenticated source is not withdrawn by a frame that did not prove it came from its sensor: anyone
 * could publish garbage on its topic (in-process, the second test).
 */
import type { MotorCommand } from '@pentagate/protocol';
import t from 'tap';
import { armFixture } from './helpers/arm-fixture.js';
import { freshArmCell } from './helpers/fresh-arm-cell.js';

t.test('an unusable frame withdraws its source at once, and stops a running motion', async (t) => {
  const { fixture, topics, inbox, publish, decide, nextStop } = await freshArmCell(t);
  let seq = 1;
  const goodProximity = () =>
    publish(topics.telemetry('proximity'), fixture.proximityFrame(++seq, Date.now(), null));
  const running = async (intentId: string) => {
    t.equal((await decide(intentId)).outcome, 'signed', `${intentId}: signed on good telemetry`);
    await inbox.next<MotorCommand>(topics.cmd, (c) => c.intentId === intentId);
  };

  for (const frame of fixture.passingFrames(1, Date.now()))
    await publish(topics.telemetry(frame.source), frame);

  const unusable: { name: string; topic: string; body: unknown; gate: string }[] = [
    {
      name: 'not JSON (NaN)',
      topic: topics.telemetry('proximity'),
      body: JSON.stringify(fixture.proximityFrame(900, Date.now(), 1)).replace(
        '"nearestHumanM":1',
        '"nearestHumanM":NaN',
      ),
      gate: 'RISK',
    },
    {
      name: 'a negative distance',
      topic: topics.telemetry('proximity'),
      body: fixture.proximityFrame(901, Date.now(), -0.05),
      gate: 'RISK',
    },
    {
      name: 'a state of charge above 1',
      topic: topics.telemetry('battery'),
      body: {
        ...fixture.passingFrames(902, Date.now()).find((f) => f.source === 'battery'),
        stateOfCharge: 1.5,
      },
      gate: 'ECONOMY',
    },
    {
      name: 'a frame naming another source',
      topic: topics.telemetry('proximity'),
      body: { ...fixture.proximityFrame(903, Date.now(), null), source: 'battery' },
      gate: 'RISK',
    },
  ];
  for (const [k, u] of unusable.entries()) {
    const intentId = `running-${k}`;
    await running(intentId);
    await publish(u.topic, u.body);
    // A running motion is re-checked for INVARIANT and RISK (edge README); the battery decides the next move.
    if (u.gate === 'RISK') {
      const stop = await nextStop(intentId);
      t.equal(stop.intentId, intentId, `${u.name}: the running motion is stopped at once`);
    }
    const next = await decide(`after-${k}`);
    t.equal(next.outcome, 'vetoed', `${u.name}: the next move is vetoed`);
    t.match(
      next.violations.join('\n'),
      new RegExp(
        `^${u.gate}\\.MISSING_DATA: no usable \\w+ frame from \\w+: its last was withdrawn when an unusable one arrived`,
        'm',
      ),
      `${u.name}: by ${u.gate}, which says why`,
    );
    // the next good frame makes the source usable again
    if (u.gate === 'ECONOMY') {
      const battery = fixture.passingFrames(++seq, Date.now()).find((f) => f.source === 'battery');
      await publish(topics.telemetry('battery'), battery);
    } else await goodProximity();
  }
  t.equal((await decide('recovered')).outcome, 'signed', 'good frames: signed again');
});

t.test(
  'a frame that did not prove its sensor sent it withdraws nothing from an authenticated source',
  async (t) => {
    const proximityKey = new Uint8Array(32).fill(7);
    const fixture = armFixture({ robotId: 'r1', fastSourceMaxAgeMs: 60_000, proximityKey });
    const gate = fixture.makeGate();
    const now = Date.now();
    for (const frame of fixture.passingFrames(1, now))
      t.ok(gate.ingestTelemetry(frame, now, frame.source).accepted);
    const unsigned = { ...fixture.proximityFrame(2, now, -1) } as Record<string, unknown>;
    delete unsigned.mac;
    t.notOk(gate.ingestTelemetry(unsigned, now, 'proximity').accepted, 'a forged unusable frame is refused');
    t.equal(gate.unreadableTelemetry('proximity', now), undefined, 'nothing to stop');
    t.equal(
      gate.trapAndSign(fixture.smallMove('m1'), now).kind,
      'signed',
      "the real sensor's frame still decides",
    );
    // an unauthenticated source of the same edge is withdrawn by an unreadable message on its topic
    gate.unreadableTelemetry('battery', now);
    const vetoed = gate.trapAndSign(fixture.smallMove('m2'), now + 20_000);
    t.equal(vetoed.kind, 'veto');
    t.match(vetoed.verdict.violations.join('\n'), /^ECONOMY\./m, 'the battery source reads as missing');
  },
);
