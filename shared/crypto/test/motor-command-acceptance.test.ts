import { randomBytes } from 'node:crypto';
import { type ControllerState, acceptMotorCommand, signMotorCommand } from '@pentagate/crypto';
import t from 'tap';
import { T0_MS, unsignedCommand } from './fixtures/motor-command.js';

const key = randomBytes(32);
const keys = new Map([['0123456789abcdef', new Uint8Array(key)]]);
const state: ControllerState = { robotId: 'arm-7', epoch: 3, lastSeq: 6 };
const now = T0_MS + 50;
const signed = (overrides: Record<string, unknown> = {}) => signMotorCommand(key, unsignedCommand(overrides));

function rejection(input: unknown, at = now, from = state) {
  const result = acceptMotorCommand(from, input, { keys, nowMs: at });
  if (result.accepted) throw new Error('expected a rejection');
  return result;
}

t.test('accepts a fresh, correctly signed command and advances lastSeq', async (t) => {
  const command = signed();
  const result = acceptMotorCommand(state, command, { keys, nowMs: now });
  t.ok(result.accepted);
  if (!result.accepted) return;
  t.same(result.state, { robotId: 'arm-7', epoch: 3, lastSeq: 7 });
  t.same(result.command, command);
  t.same(state, { robotId: 'arm-7', epoch: 3, lastSeq: 6 }, 'the input state is not mutated');
});

t.test('accepts the command as JSON text or bytes off the wire', async (t) => {
  const text = JSON.stringify(signed());
  t.ok(acceptMotorCommand(state, text, { keys, nowMs: now }).accepted);
  t.ok(acceptMotorCommand(state, new TextEncoder().encode(text), { keys, nowMs: now }).accepted);
});

t.test('adopts a higher epoch (how a signed STOP bumps the controller)', async (t) => {
  const stop = signed({ epoch: 4, seq: 8, setpoints: { kind: 'stop', reason: 'human in radius' } });
  const result = acceptMotorCommand(state, stop, { keys, nowMs: now });
  t.ok(result.accepted);
  if (!result.accepted) return;
  t.same(result.state, { robotId: 'arm-7', epoch: 4, lastSeq: 8 });
  const old = rejection(signed({ epoch: 3, seq: 9 }), now, result.state);
  t.equal(old.reason, 'stale-epoch', 'commands of the old epoch are now refused');
});

t.test('malformed: not an object, missing or mistyped fields, bad JSON', async (t) => {
  t.equal(rejection(null).reason, 'malformed');
  t.equal(rejection('{"v":').reason, 'malformed');
  const { mac: _mac, ...noMac } = signed();
  const missing = rejection(noMac);
  t.equal(missing.reason, 'malformed');
  t.match(missing.detail, /mac/);
  const mistyped = rejection({ ...signed(), seq: '7' });
  t.match(mistyped.detail, /\/seq/);
  t.equal(rejection({ ...signed(), extra: true }).reason, 'malformed', 'unknown members are refused');
  t.equal(rejection('{"seq": 9007199254740993}').reason, 'malformed', 'unsafe integers are refused');
});

t.test('wrong-robot: a command for another robot', async (t) => {
  const r = rejection(signed({ robotId: 'arm-8' }));
  t.equal(r.reason, 'wrong-robot');
  t.match(r.detail, /arm-8/);
});

t.test('unknown-kid: a key id the controller does not hold', async (t) => {
  const r = rejection(signMotorCommand(key, unsignedCommand({ kid: 'fedcba9876543210' })));
  t.equal(r.reason, 'unknown-kid');
  t.match(r.detail, /fedcba9876543210/);
});

t.test('bad-mac: a tampered field, a forged tag or another key', async (t) => {
  t.equal(rejection({ ...signed(), seq: 99 }).reason, 'bad-mac', 'tampered seq');
  t.equal(rejection(signMotorCommand(randomBytes(32), unsignedCommand())).reason, 'bad-mac', 'other key');
  const flipped = signed();
  const c = flipped.mac[5] === 'A' ? 'B' : 'A';
  t.equal(
    rejection({ ...flipped, mac: flipped.mac.slice(0, 5) + c + flipped.mac.slice(6) }).reason,
    'bad-mac',
  );
});

t.test('bad-mac is decided before epoch, seq and time, so forgeries never move state', async (t) => {
  const forged = { ...signed({ epoch: 1, seq: 1, validUntil: 0 }), mac: 'A'.repeat(43) };
  t.equal(rejection(forged).reason, 'bad-mac');
});

t.test('stale-epoch: an epoch older than the current one', async (t) => {
  const r = rejection(signed({ epoch: 2, seq: 100 }));
  t.equal(r.reason, 'stale-epoch');
  t.match(r.detail, /epoch 2 is older than the current epoch 3/);
});

t.test('replayed-seq: equal and lower seq, also across a new epoch', async (t) => {
  const equal = rejection(signed({ seq: 6 }));
  t.equal(equal.reason, 'replayed-seq');
  t.match(equal.detail, /seq 6 is not greater than the last accepted seq 6/);
  t.equal(rejection(signed({ seq: 2 })).reason, 'replayed-seq', 'lower');
  t.equal(rejection(signed({ epoch: 5, seq: 6 })).reason, 'replayed-seq', 'a new epoch does not reset seq');
  const first = acceptMotorCommand(state, signed(), { keys, nowMs: now });
  if (!first.accepted) throw new Error('first delivery must be accepted');
  t.equal(rejection(signed(), now, first.state).reason, 'replayed-seq', 'the same command twice');
});

t.test('expired: now is past validUntil; validUntil itself is still valid', async (t) => {
  t.ok(acceptMotorCommand(state, signed(), { keys, nowMs: T0_MS + 200 }).accepted, 'now == validUntil');
  const r = rejection(signed(), T0_MS + 201);
  t.equal(r.reason, 'expired');
  t.match(r.detail, /1 ms before now/);
  t.equal(rejection(signed(), Number.NaN).reason, 'expired', 'no clock fails closed');
});

t.test('issued-in-future: issuedAt beyond now + skew (default 500 ms)', async (t) => {
  const future = signed({ issuedAt: now + 501, validUntil: now + 1000 });
  const r = rejection(future);
  t.equal(r.reason, 'issued-in-future');
  t.match(r.detail, /allowed skew 500 ms/);
  const edge = signed({ issuedAt: now + 500, validUntil: now + 1000 });
  t.ok(acceptMotorCommand(state, edge, { keys, nowMs: now }).accepted, 'exactly at the skew');
  const strict = acceptMotorCommand(state, edge, { keys, nowMs: now, maxFutureSkewMs: 0 });
  t.equal(strict.accepted ? 'accepted' : strict.reason, 'issued-in-future', 'custom skew');
});
