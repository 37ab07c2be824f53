/**
 * The motor controller accepts only through the shared acceptance function, executes, halts on STOP and on
 * its watchdog, and counts every attack the wire can carry — directly and over a real socat serial line.
 */
import { hmacKeyId, signMotorCommand } from '@pentagate/crypto';
import type { MotorCommand, Setpoints } from '@pentagate/protocol';
import t from 'tap';
import { MotorController } from '../src/controller/motor-controller.js';
import { CommandWire } from '../src/runner/command-wire.js';
import { SerialLine } from '../src/runner/serial-line.js';

const key = new Uint8Array(32).fill(7);
const kid = hmacKeyId(key);
const JOINTS = ['a', 'b'];

function command(seq: number, epoch: number, setpoints: Setpoints, nowMs = Date.now()): MotorCommand {
  return signMotorCommand(key, {
    v: 1,
    kid,
    robotId: 'r1',
    epoch,
    seq,
    issuedAt: nowMs,
    validUntil: nowMs + 150,
    intentId: `i${seq}`,
    setpoints,
    cfgDigest: 'a'.repeat(64),
    evidenceDigest: 'b'.repeat(64),
  });
}
const move: Setpoints = {
  kind: 'joint',
  jointNames: JOINTS,
  points: [{ positionsRad: [1, 2], timeFromStartMs: 100 }],
};

function controller(clock: () => number, watchdogMs = 1000): MotorController {
  return new MotorController({
    robotId: 'r1',
    keys: new Map([[kid, key]]),
    jointNames: JOINTS,
    watchdogMs,
    clock,
  });
}

t.test('executes a signed trajectory from where the joints are, then holds', async (t) => {
  let now = 1_000_000;
  const c = controller(() => now);
  t.equal(c.receive(JSON.stringify(command(1, 1, move, now)), 'test', [0, 0]).kind, 'accepted');
  now += 50;
  t.same(c.setpoint(), { kind: 'joint', positionsRad: [0.5, 1] }, 'halfway at half time');
  now += 60;
  t.same(c.setpoint(), { kind: 'joint', positionsRad: [1, 2] }, 'at the end point');
  t.equal(c.setpoint(), undefined, 'done: hold');
});

t.test('a signed speed cap of 0 holds the robot instead of running the plan at full speed', async (t) => {
  let now = 0;
  const c = controller(() => now);
  t.equal(
    c.receive(JSON.stringify(command(1, 1, { ...move, speedScale: 0 }, now)), 'test', [0, 0]).kind,
    'accepted',
  );
  now = 50;
  t.equal(c.setpoint(), undefined, 'no setpoint: the joints hold where they are');
  t.match(c.events.at(-1), { kind: 'halted', detail: /caps the speed to 0/ });
});

t.test('a speed cap stretches the trajectory; a twist stops after its duration', async (t) => {
  let now = 0;
  const c = controller(() => now);
  c.receive(JSON.stringify(command(1, 1, { ...move, speedScale: 0.5 }, now)), 'test', [0, 0]);
  now = 100;
  t.same(
    c.setpoint(),
    { kind: 'joint', positionsRad: [0.5, 1] },
    'half speed: halfway at the planned end time',
  );
  c.receive(
    JSON.stringify(
      command(
        2,
        1,
        {
          kind: 'twist',
          linearMps: { x: 1, y: 0, z: 0 },
          angularRadS: { x: 0, y: 0, z: 0.5 },
          durationMs: 100,
        },
        now,
      ),
    ),
    'test',
  );
  t.same(c.setpoint(), { kind: 'twist', linearMps: 1, angularRadS: 0.5 });
  now = 250;
  t.same(c.setpoint(), { kind: 'twist', linearMps: 0, angularRadS: 0 }, 'the twist ends by itself');
});

t.test('a signed STOP halts, and its new epoch kills older commands', async (t) => {
  const now = 0;
  const c = controller(() => now);
  const first = command(1, 1, move, now);
  c.receive(JSON.stringify(first), 'test', [0, 0]);
  c.receive(JSON.stringify(command(2, 2, { kind: 'stop', reason: 'RISK.HUMAN_IN_RADIUS' }, now)), 'test');
  t.equal(c.setpoint(), undefined, 'halted');
  t.equal(c.state.epoch, 2, 'epoch adopted from the STOP');
  t.match(c.events.at(-1), { kind: 'halted', cause: 'stop-command' });
  const late = c.receive(JSON.stringify(command(3, 1, move, now)), 'test', [0, 0]);
  t.match(late, { kind: 'rejected', reason: 'stale-epoch' });
});

t.test('the watchdog halts a motion that outlives its last valid command', async (t) => {
  let now = 0;
  const c = controller(() => now, 40);
  c.receive(JSON.stringify(command(1, 1, move, now)), 'test', [0, 0]);
  now = 30;
  t.ok(c.setpoint(), 'still within the watchdog');
  now = 50;
  t.equal(c.setpoint(), undefined, 'halted by the watchdog');
  t.match(c.events.at(-1), { kind: 'halted', cause: 'watchdog' });
});

t.test('every attack on the wire is refused and counted by reason', async (t) => {
  const c = controller(Date.now);
  const wire = new CommandWire((frame, via) => c.receive(frame, via, [0, 0]));
  wire.inject('replayed');
  t.same(wire.skipped, ['replayed'], 'nothing to replay before any command was seen: the attacker waits');
  wire.fromEdge(JSON.stringify(command(1, 1, move)));
  t.same(wire.skipped, [], 'and replays the first command it sees');
  for (const attack of ['replayed', 'tampered', 'unsigned', 'unknown-key', 'wrong-robot'] as const)
    wire.inject(attack);
  wire.fromEdge(JSON.stringify(command(2, 2, { kind: 'stop', reason: 'test' })));
  wire.inject('wrong-epoch');
  wire.inject('expired');
  wire.fromEdge(JSON.stringify(command(3, 2, move)));
  await new Promise((r) => setTimeout(r, 250));
  c.receive('{not json', 'test');
  wire.close();
  t.same(c.rejections(), {
    malformed: 1,
    'wrong-robot': 1,
    'unknown-kid': 1,
    'bad-mac': 2,
    'stale-epoch': 1,
    'replayed-seq': 2,
    expired: 1,
    'issued-in-future': 0,
  });
  t.equal(
    c.events.filter((e) => e.kind === 'accepted').length,
    2,
    'only the two genuine, timely commands ran',
  );
});

t.test('commands and attacks over a real serial line (socat pseudo-terminals)', async (t) => {
  let line: SerialLine;
  try {
    line = await SerialLine.open();
  } catch (err) {
    if (process.env.CI) throw err;
    t.skip(`socat is not available: ${(err as Error).message}`, () => {});
    return;
  }
  t.teardown(() => line.close());
  const c = controller(Date.now);
  const got = new Promise<void>((resolve) => {
    c.onEvent(() => {
      if (c.events.length === 2) resolve();
    });
  });
  line.onControllerFrame((frame) => c.receive(frame, 'serial', [0, 0]));
  const wire = new CommandWire((frame) => line.send(frame));
  wire.fromEdge(JSON.stringify(command(1, 1, move)));
  wire.inject('replayed');
  await got;
  t.match(c.events[0], { kind: 'accepted', via: 'serial' });
  t.match(c.events[1], { kind: 'rejected', reason: 'replayed-seq' });
});
