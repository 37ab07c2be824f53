import { acceptMotorCommand, type ControllerState } from '@pentagate/crypto';
import type { MotorCommand, VerdictEvent } from '@pentagate/protocol';
import t from 'tap';
import type { SerialFraming } from '../../src/serial/serial-framing.js';
import { SerialTransport } from '../../src/serial/serial-transport.js';
import { armFixture } from '../runtime/helpers/arm-fixture.js';
import { startedNode } from '../runtime/helpers/started-node.js';
import { PtyPair, socatMissing } from './helpers/pty-pair.js';
import { Controller } from './helpers/serial-controller.js';

const missing = socatMissing();

const isCommand = (v: unknown): v is MotorCommand => typeof (v as MotorCommand).mac === 'string';
const isVerdict = (v: unknown): v is VerdictEvent => typeof (v as VerdictEvent).outcome === 'string';

/** A tap subtest (the type tap hands to `t.test` callbacks). */
type TapTest = Parameters<Parameters<typeof t.test>[0]>[0];

async function startEdge(t: TapTest, framing: SerialFraming) {
  const dir = t.testdir();
  const pty = new PtyPair(dir);
  await pty.start();
  t.teardown(() => pty.stop());
  const fixture = armFixture({ robotId: 'mcu-arm' });
  const transport = await SerialTransport.open({
    path: pty.edgePath,
    robotId: fixture.robotId,
    framing,
    sendVerdicts: true,
    reconnectPeriodMs: 50,
  });
  const { node } = await startedNode(t, { fixture, transport });
  const mcu = await Controller.open(pty.controllerPath, framing);
  t.teardown(() => mcu.close());
  return { fixture, transport, node, mcu, pty };
}

for (const framing of ['ndjson', 'cobs'] as const) {
  t.test(
    `HIL over a serial line (${framing}): telemetry in, signed command out, accepted; a human → signed STOP`,
    { skip: missing },
    async (t) => {
      const { fixture, mcu } = await startEdge(t, framing);
      const keys = new Map([[fixture.hmacKey.kid, fixture.hmacKey.key]]);
      for (const frame of fixture.passingFrames(1, Date.now())) mcu.send(frame);
      mcu.send(fixture.smallMove('serial-move-1'));
      const command = await mcu.next<MotorCommand>((v) => isCommand(v) && v.intentId === 'serial-move-1');
      let state: ControllerState = { robotId: fixture.robotId, epoch: 0, lastSeq: 0 };
      const accepted = acceptMotorCommand(state, command, { keys, nowMs: Date.now() });
      t.ok(
        accepted.accepted,
        `the controller accepts the command (${accepted.accepted ? 'ok' : accepted.detail})`,
      );
      if (!accepted.accepted) return;
      state = accepted.state;
      t.equal(
        (await mcu.next<VerdictEvent>((v) => isVerdict(v) && v.intentId === 'serial-move-1')).outcome,
        'signed',
      );

      mcu.send(fixture.proximityFrame(2, Date.now(), 0.3));
      const stop = await mcu.next<MotorCommand>((v) => isCommand(v) && v.setpoints.kind === 'stop');
      const stopAccepted = acceptMotorCommand(state, stop, { keys, nowMs: Date.now() });
      t.ok(stopAccepted.accepted, 'the STOP is accepted');
      if (stopAccepted.accepted) t.ok(stopAccepted.state.epoch > state.epoch, 'the STOP carries a new epoch');
      t.match(stop.setpoints, { kind: 'stop', reason: /RISK/ });
      const replayed = acceptMotorCommand(stopAccepted.accepted ? stopAccepted.state : state, command, {
        keys,
        nowMs: Date.now(),
      });
      t.match(replayed, { accepted: false }, 'the earlier motion command is dead after the STOP');
    },
  );
}

t.test(
  'garbage on the line gets rejected-input verdicts and never a command',
  { skip: missing },
  async (t) => {
    const { mcu, transport } = await startEdge(t, 'cobs');
    mcu.sendRaw(Uint8Array.from([0x05, 0x11, 0x00])); // a COBS block that overruns
    const v1 = await mcu.next<VerdictEvent>((v) => isVerdict(v) && v.outcome === 'rejected-input');
    t.match(v1.violations[0], /MALFORMED|serial/);
    mcu.send('{"kind":"joint-state","v":1}');
    const v2 = await mcu.next<VerdictEvent>((v) => isVerdict(v) && v.outcome === 'rejected-input');
    t.match(v2.violations.join(' '), /TELEMETRY|telemetry/);
    mcu.send({
      v: 1,
      kind: 'joint-trajectory',
      intentId: 'bad',
      robotId: 'mcu-arm',
      jointNames: [],
      points: [],
    });
    const v3 = await mcu.next<VerdictEvent>((v) => isVerdict(v) && v.intentId === 'bad');
    t.equal(v3.outcome, 'rejected-input');
    mcu.send({ payloadType: 'application/vnd.pentagate.consent+json', payload: '', signatures: [] });
    const v4 = await mcu.next<VerdictEvent>(
      (v) => isVerdict(v) && v.violations.some((x) => x.startsWith('CONSENT.')),
    );
    t.equal(v4.outcome, 'vetoed');
    t.equal(mcu.received.filter(isCommand).length, 0);
    t.ok(transport.counters.badFrames >= 1);
  },
);

t.test(
  'the transport reopens the line after it drops, and refuses to send while it is down',
  { skip: missing },
  async (t) => {
    const { fixture, transport, pty, mcu } = await startEdge(t, 'ndjson');
    await mcu.close();
    await pty.stop();
    const deadline = Date.now() + 5000;
    while (transport.isConnected() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    t.notOk(transport.isConnected(), 'the hang-up is noticed');
    await t.rejects(transport.publishCommand({} as MotorCommand), { code: 'TRANSPORT_CLOSED' });
    await pty.start();
    while (!transport.isConnected() && Date.now() < deadline + 5000)
      await new Promise((r) => setTimeout(r, 20));
    t.ok(transport.isConnected(), 'reconnected');
    t.equal(transport.counters.reconnects, 1);
    const mcu2 = await Controller.open(pty.controllerPath, 'ndjson');
    t.teardown(() => mcu2.close());
    for (const frame of fixture.passingFrames(1, Date.now())) mcu2.send(frame);
    mcu2.send(fixture.smallMove('after-reconnect'));
    const command = await mcu2.next<MotorCommand>((v) => isCommand(v) && v.intentId === 'after-reconnect');
    t.equal(command.intentId, 'after-reconnect');
  },
);

t.test('opening a port that does not exist fails with a clear error', async (t) => {
  await t.rejects(SerialTransport.open({ path: '/dev/pentagate-no-such-tty', robotId: 'r1' }), {
    code: 'SERIAL_OPEN_FAILED',
    message: /cannot open serial port \/dev\/pentagate-no-such-tty/,
  });
});
