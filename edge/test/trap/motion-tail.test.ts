/**
 * A signed motion is monitored for as long as the controller may still be running it. The controller accepts
 * a command until its validUntil (the node publishes it only after its verdict is durable, and the link adds
 * its own delay) and then runs the whole plan from that moment; the gate stopped monitoring at issuedAt +
 * duration, so a command accepted late left the end of its motion, up to validForMs, with no RISK or INVARIANT
 * check: a person walking in then got no STOP. Likewise a motion signed while another runs watched only its
 * own plan's time, though the controller may never take it and run the earlier motion to its end.
 */
import { acceptMotorCommand } from '@pentagate/crypto';
import t from 'tap';
import { armFixture } from '../runtime/helpers/arm-fixture.js';

t.test('a person entering while a late-accepted motion still runs gets a STOP', async (t) => {
  const fixture = armFixture();
  const gate = fixture.makeGate();
  const t0 = Date.now();
  for (const frame of fixture.passingFrames(1, t0)) gate.ingestTelemetry(frame, t0);
  const signed = gate.trapAndSign(fixture.smallMove('m1', 2), t0); // a 200 ms plan
  if (signed.kind !== 'signed') throw new Error(`expected a signed command, got ${signed.kind}`);
  const validForMs = fixture.profile.command.validForMs;
  t.ok(validForMs > 400, 'the fixture commands stay valid long enough for a late acceptance');

  // the controller takes it 400 ms after it was signed, and runs its 200 ms from then
  const acceptedAt = t0 + 400;
  const accepted = acceptMotorCommand({ robotId: fixture.robotId, epoch: 0, lastSeq: 0 }, signed.command, {
    keys: new Map([[fixture.hmacKey.kid, fixture.hmacKey.key]]),
    nowMs: acceptedAt,
  });
  t.equal(accepted.accepted, true, 'the controller accepts it then');

  const humanAt = acceptedAt + 100; // the arm is halfway through
  const outcome = gate.ingestTelemetry(fixture.proximityFrame(2, humanAt, 0.3), humanAt);
  t.equal(outcome.stop?.setpoints.kind, 'stop', 'a signed STOP');
  t.match(outcome.verdict, { outcome: 'stopped', violations: [/RISK\.HUMAN_IN_RADIUS/] });
});

t.test('after the latest moment it can have ended, the motion is no longer monitored', async (t) => {
  const fixture = armFixture();
  const gate = fixture.makeGate();
  const t0 = Date.now();
  for (const frame of fixture.passingFrames(1, t0)) gate.ingestTelemetry(frame, t0);
  const signed = gate.trapAndSign(fixture.smallMove('m1', 2), t0);
  t.equal(signed.kind, 'signed');
  const after = t0 + fixture.profile.command.validForMs + 200 + 1;
  const outcome = gate.ingestTelemetry(fixture.proximityFrame(2, after, 0.3), after);
  t.equal(outcome.stop, undefined, 'nothing to stop');
  t.equal(gate.activeMotion, undefined);
});

t.test('a short move signed during a long one is watched as long as the long one may run', async (t) => {
  // the short command may never replace the long one on the controller (lost, late, refused there)
  const fixture = armFixture();
  const gate = fixture.makeGate();
  const t0 = Date.now();
  for (const frame of fixture.passingFrames(1, t0)) gate.ingestTelemetry(frame, t0);
  t.equal(gate.trapAndSign(fixture.smallMove('long', 100), t0).kind, 'signed'); // 10 s
  const shortAt = t0 + 1_000;
  for (const frame of fixture.passingFrames(2, shortAt)) gate.ingestTelemetry(frame, shortAt);
  t.equal(gate.trapAndSign(fixture.smallMove('short', 2), shortAt).kind, 'signed'); // 200 ms
  const humanAt = shortAt + fixture.profile.command.validForMs + 200 + 3_000; // the long move still runs
  const outcome = gate.ingestTelemetry(fixture.proximityFrame(3, humanAt, 0.3), humanAt);
  t.equal(outcome.stop?.setpoints.kind, 'stop', 'a signed STOP');
  t.match(outcome.verdict, { outcome: 'stopped', violations: [/RISK\.HUMAN_IN_RADIUS/] });
});
