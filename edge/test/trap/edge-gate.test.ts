import { acceptMotorCommand, verifyCommandMac } from '@pentagate/crypto';
import { conforms, MotorCommandSchema, toBase64Url, VerdictEventSchema } from '@pentagate/protocol';
import t from 'tap';
import {
  T0,
  armIntent,
  armProfile,
  baseIntent,
  baseProfile,
  consent,
  feedHealthy,
  HOME,
  hmacKey,
  jointState,
  makeGate,
  proximity,
} from './fixtures.js';

const keys = new Map([[hmacKey.kid, hmacKey.key]]);

t.test('signs a safe arm move; the controller accepts it; cfg and evidence digests bind it', async (t) => {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  const r = gate.trapAndSign(armIntent(), T0);
  t.equal(r.kind, 'signed', JSON.stringify(r.verdict.violations));
  if (r.kind !== 'signed') return;
  t.ok(conforms(MotorCommandSchema, r.command));
  t.ok(conforms(VerdictEventSchema, r.verdict));
  t.ok(verifyCommandMac(hmacKey.key, r.command));
  t.equal(r.command.cfgDigest, gate.cfgDigest);
  t.equal(r.command.validUntil, T0 + profile.command.validForMs);
  t.equal(r.verdict.evidenceDigest, r.command.evidenceDigest);
  t.match(
    r.verdict,
    { commandSeq: r.command.seq, commandKid: r.command.kid, cfgDigest: r.command.cfgDigest },
    "the verdict names the command's key and profile, which the fleet checks against the registration",
  );
  t.equal(r.verdict.gates.length, 5);
  const acc = acceptMotorCommand({ robotId: profile.robotId, epoch: 0, lastSeq: 0 }, r.command, {
    keys,
    nowMs: T0 + 10,
  });
  t.ok(acc.accepted);
});

t.test('a safe base move is signed', async (t) => {
  const { gate, profile } = makeGate(baseProfile());
  feedHealthy(gate, profile);
  const r = gate.trapAndSign(baseIntent(), T0);
  t.equal(r.kind, 'signed', JSON.stringify(r.verdict.violations));
});

t.test('malformed intents give a rejected-input verdict naming the problem and never throw', async (t) => {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  for (const bad of [
    null,
    42,
    'x',
    {},
    { ...armIntent(), points: [] },
    { ...armIntent(), robotId: 'other' },
  ]) {
    const r = gate.trapAndSign(bad, T0);
    t.equal(r.kind, 'veto');
    t.equal(r.verdict.outcome, 'rejected-input');
    t.match(r.verdict.violations[0], /^INPUT\.INTENT_INVALID: /);
  }
  const wrongLength = armIntent({ points: [{ positionsRad: [0, 1], timeFromStartMs: 100 }] });
  t.match(gate.trapAndSign(wrongLength, T0).verdict.violations[0], /expected 6 values, got 2/);
  const backwards = armIntent();
  backwards.points[1]!.timeFromStartMs = 100;
  t.match(gate.trapAndSign(backwards, T0).verdict.violations[0], /strictly increasing/);
  t.match(
    gate.trapAndSign(baseIntent({ robotId: 'ur5e-01' }), T0).verdict.violations[0],
    /takes joint-trajectory/,
  );
});

t.test(
  'consent: awaits, resumes on a valid token, refuses reuse, wrong intent, expiry and timeout',
  async (t) => {
    const { gate, profile } = makeGate();
    feedHealthy(gate, profile);
    const intent = armIntent({ intentId: 'int-critical', safetyCritical: true });
    const waiting = gate.trapAndSign(intent, T0);
    t.equal(waiting.kind, 'awaiting-consent');
    if (waiting.kind !== 'awaiting-consent') return;
    t.match(waiting.verdict.violations[0], /^CONSENT\.REQUIRED: safety-critical/);

    const other = armIntent({ intentId: 'int-other', safetyCritical: true });
    t.match(gate.submitConsent(consent(other), T0).verdict.violations[0], /^CONSENT\.NO_WAITING_INTENT/);
    t.match(
      gate.submitConsent(consent(intent, { expiresAt: T0 - 1 }), T0).verdict.violations[0],
      /^CONSENT\.EXPIRED/,
    );
    t.match(
      gate.submitConsent(consent(intent, { scope: 'high-torque' }), T0).verdict.violations[0],
      /^CONSENT\.WRONG_SCOPE/,
    );
    t.match(
      gate.submitConsent(consent(intent, { robotId: 'other-robot' }), T0).verdict.violations[0],
      /^CONSENT\.WRONG_ROBOT/,
    );
    t.match(gate.submitConsent({ not: 'an envelope' }, T0).verdict.violations[0], /^CONSENT\.INVALID/);

    const token = consent(intent, { nonce: 'nonce-single-use-0001' });
    const signed = gate.submitConsent(token, T0);
    t.equal(signed.kind, 'signed', JSON.stringify(signed.verdict.violations));
    // A copy of the intent while the consented motion may run (an MQTT redelivery) is refused, not parked
    // for a second consent.
    const copy = gate.trapAndSign(intent, T0 + 1);
    t.equal(copy.verdict.outcome, 'rejected-input');
    t.match(
      copy.verdict.violations[0],
      /^INPUT\.DUPLICATE_INTENT: identical to intent int-critical signed at /,
    );
    // Once that motion has ended, the same intent is a new request and waits again; the same token is refused
    // (single use).
    const ended = gate.activeMotion!.endsAtMs + 1;
    feedHealthy(gate, profile, ended);
    t.equal(gate.trapAndSign(intent, ended).kind, 'awaiting-consent');
    t.match(gate.submitConsent(token, ended).verdict.violations[0], /^CONSENT\.REPLAYED/);

    // A valid token that arrives after the wait's deadline, before the expiry sweep ran, releases nothing.
    const deadline = ended + profile.consent.timeoutMs;
    const late = gate.submitConsent(
      consent(intent, { notBefore: T0, expiresAt: deadline + 60_000 }),
      deadline,
    );
    t.equal(late.kind, 'veto', 'a late token is refused');
    t.match(late.verdict.violations[0], /^CONSENT\.NO_WAITING_INTENT: intent int-critical stopped waiting/);
    t.equal(gate.waitingConsents().length, 1, 'and the wait is left for the sweep to time out');

    const expired = gate.expireConsents(deadline);
    t.equal(expired.length, 1);
    t.equal(expired[0]!.verdict.outcome, 'consent-expired');
    t.match(expired[0]!.verdict.violations[0], /^CONSENT\.TIMEOUT/);
    t.same(gate.waitingConsents(), []);
  },
);

t.test(
  "an operator's signed denial vetoes the waiting move at once; it is single use and releases nothing",
  async (t) => {
    const { gate, profile } = makeGate();
    feedHealthy(gate, profile);
    const intent = armIntent({ intentId: 'int-denied', safetyCritical: true });
    t.equal(gate.trapAndSign(intent, T0).kind, 'awaiting-consent');
    const { vendor } = await import('./fixtures.js');
    const unsigned = gate.submitConsent(consent(intent, { decision: 'deny' }, vendor), T0);
    t.match(unsigned.verdict.violations[0], /^CONSENT\.INVALID/, 'a denial needs an operator key too');
    t.equal(gate.waitingConsents().length, 1, 'so the move still waits');

    // a high-torque denial of a safety-critical move: refusing needs no more than the wait already gives
    const denial = consent(intent, { decision: 'deny', scope: 'high-torque', nonce: 'nonce-denial-00001' });
    const denied = gate.submitConsent(denial, T0 + 10);
    t.equal(denied.kind, 'veto');
    t.equal(denied.verdict.outcome, 'vetoed');
    t.equal(denied.verdict.intentId, 'int-denied');
    t.match(denied.verdict.violations[0], /^CONSENT\.DENIED: operator \S+ denied the move/);
    t.same(gate.waitingConsents(), [], 'the move no longer waits');
    t.same(gate.expireConsents(T0 + profile.consent.timeoutMs + 1), [], 'and is not timed out later');
    t.match(
      gate.submitConsent(consent(intent, { nonce: 'nonce-grant-000001' }), T0 + 20).verdict.violations[0],
      /^CONSENT\.NO_WAITING_INTENT/,
      'a grant after the denial releases nothing',
    );

    // the same move asked for again: the captured denial cannot be replayed against it
    t.equal(gate.trapAndSign(intent, T0 + 30).kind, 'awaiting-consent');
    t.match(gate.submitConsent(denial, T0 + 40).verdict.violations[0], /^CONSENT\.REPLAYED/);
    t.equal(gate.waitingConsents().length, 1, 'the move waits again, for its own decision');
    t.equal(gate.submitConsent(consent(intent, { nonce: 'nonce-grant-000002' }), T0 + 50).kind, 'signed');
  },
);

t.test('a consent statement signed by a non-operator key is refused', async (t) => {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  const intent = armIntent({ safetyCritical: true });
  gate.trapAndSign(intent, T0);
  const { vendor } = await import('./fixtures.js');
  t.match(gate.submitConsent(consent(intent, {}, vendor), T0).verdict.violations[0], /^CONSENT\.INVALID/);
});

t.test('a consent statement naming another operator than its key was enrolled for is refused', async (t) => {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  const { stranger } = await import('./fixtures.js');
  // The cloud's registry names each enrolled key's operator (operator-keys.ts): bob's key speaks for bob only.
  gate.trustOperatorKeys([
    {
      kid: stranger.keyid,
      alg: 'Ed25519',
      role: 'operator',
      publicKey: toBase64Url(stranger.publicKey),
      name: 'bob',
    },
  ]);
  const intent = armIntent({ intentId: 'int-bob', safetyCritical: true });
  t.equal(gate.trapAndSign(intent, T0).kind, 'awaiting-consent');
  const forged = gate.submitConsent(consent(intent, { operatorId: 'alice' }, stranger), T0);
  t.equal(forged.kind, 'veto');
  t.match(forged.verdict.violations[0], /^CONSENT\.INVALID: .*enrolled for operator bob.*names alice/);
  t.equal(gate.waitingConsents().length, 1, 'the intent keeps waiting');
  t.equal(gate.submitConsent(consent(intent, { operatorId: 'bob' }, stranger), T0).kind, 'signed');
});

t.test(
  'a human entering the operating radius during the motion yields a signed STOP, even outside S_p; older-epoch commands are then refused',
  async (t) => {
    const { gate, profile } = makeGate();
    feedHealthy(gate, profile);
    const r = gate.trapAndSign(armIntent(), T0);
    if (r.kind !== 'signed') return t.fail('expected signed');
    let state = { robotId: profile.robotId, epoch: 0, lastSeq: 0 };
    const a = acceptMotorCommand(state, r.command, { keys, nowMs: T0 + 1 });
    if (!a.accepted) return t.fail(a.detail);
    state = a.state;
    // 1.19 m: inside the 1.2 m radius but beyond S_p at full speed (1.16 m), so only the radius rule stops it.
    const out = gate.ingestTelemetry(proximity(profile.robotId, 'proximity-front', T0 + 20, 1.19), T0 + 20);
    t.ok(out.accepted);
    t.ok(out.stop, 'a STOP is returned');
    t.equal(out.verdict?.outcome, 'stopped');
    t.match(out.verdict?.violations.join('\n'), /RISK\.HUMAN_IN_RADIUS: human at 1\.19 m < radius 1\.20 m/);
    t.equal(out.stop?.setpoints.kind, 'stop');
    t.ok(out.stop!.epoch > r.command.epoch);
    const s = acceptMotorCommand(state, out.stop, { keys, nowMs: T0 + 21 });
    if (!s.accepted) return t.fail(s.detail);
    t.equal(acceptMotorCommand(s.state, r.command, { keys, nowMs: T0 + 22 }).accepted, false);
    t.equal(gate.activeMotion, undefined);
  },
);

t.test('protective stop and configuration change bump the epoch; the old epoch is refused', async (t) => {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  const first = gate.trapAndSign(armIntent(), T0);
  if (first.kind !== 'signed') return t.fail('expected signed');
  const stop = gate.protectiveStop('operator pressed stop', T0 + 1);
  t.equal(stop.epoch, first.command.epoch + 1);
  t.equal(stop.setpoints.kind === 'stop' && stop.setpoints.reason, 'operator pressed stop');
  const state = { robotId: profile.robotId, epoch: stop.epoch, lastSeq: stop.seq };
  const late = acceptMotorCommand({ ...state, lastSeq: 0 }, first.command, { keys, nowMs: T0 + 2 });
  t.equal(late.accepted, false);
  if (!late.accepted) t.equal(late.reason, 'stale-epoch');
  const before = gate.epoch;
  gate.configurationChanged();
  t.equal(gate.epoch, before + 1);
  gate.configurationChanged(armProfile((p) => (p.command.validForMs = 200)));
  t.equal(gate.trapAndSign(armIntent(), T0).kind, 'veto', 'a new profile wants fresh telemetry');
});

t.test('refused telemetry gets a rejected-input verdict and is counted', async (t) => {
  const { gate, profile } = makeGate();
  const out = gate.ingestTelemetry({ v: 1, kind: 'proximity' }, T0);
  t.equal(out.accepted, false);
  t.equal(out.verdict?.outcome, 'rejected-input');
  t.match(out.verdict?.violations[0], /^INPUT\.TELEMETRY_MALFORMED/);
  t.equal(gate.telemetryRejections().malformed, 1);
  t.equal(
    gate.ingestTelemetry(proximity('other', 'proximity-front', T0, 2), T0).reason?.startsWith('wrong-robot'),
    true,
  );
  t.equal(profile.robotId, 'ur5e-01');
});

t.test(
  'a move signed without consent is stopped when it measures an effort above the high-torque threshold',
  async (t) => {
    const { gate, profile } = makeGate();
    feedHealthy(gate, profile);
    const threshold = profile.consent.highTorqueThresholdNm;
    // The planner declares efforts below the threshold (60 N·m peak), so no consent is asked for ...
    const signed = gate.trapAndSign(armIntent(), T0);
    t.equal(signed.kind, 'signed', JSON.stringify(signed.verdict.violations));
    // (joint states are fresh for 50 ms, proximity for 100 ms: every frame below is read fresh)
    // ... and while the move runs the shoulder measures an effort below the threshold: nothing happens,
    const within = gate.ingestTelemetry(
      jointState(profile, T0 + 40, HOME, [10, threshold, 20, 2, 1, 0.5]),
      T0 + 40,
    );
    t.equal(within.stop, undefined, 'at the threshold the move goes on');
    // ... until it measures one above it (still below the 150 N·m torque limit): a STOP, named.
    const above = threshold + 5;
    const over = gate.ingestTelemetry(
      jointState(profile, T0 + 80, HOME, [10, above, 20, 2, 1, 0.5]),
      T0 + 80,
    );
    t.equal(over.stop?.setpoints.kind, 'stop');
    t.equal(over.verdict?.outcome, 'stopped');
    t.match(
      over.verdict?.violations.join('\n'),
      new RegExp(
        `CONSENT\\.MEASURED_HIGH_TORQUE: shoulder_lift_joint measured ${above}\\.0 N·m > high-torque threshold ${threshold}\\.0 N·m on a move signed without consent \\(planned peak 60\\.0 N·m\\)`,
      ),
    );
    t.equal(over.verdict?.violations.length, 1, 'the only reason (below the torque limit, telemetry fresh)');
  },
);

t.test('a move an operator consented to may measure efforts above the high-torque threshold', async (t) => {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  const threshold = profile.consent.highTorqueThresholdNm;
  const intent = armIntent({ safetyCritical: true });
  t.equal(gate.trapAndSign(intent, T0).kind, 'awaiting-consent');
  t.equal(gate.submitConsent(consent(intent), T0).kind, 'signed');
  const over = gate.ingestTelemetry(
    jointState(profile, T0 + 80, HOME, [10, threshold + 5, 20, 2, 1, 0.5]),
    T0 + 80,
  );
  t.equal(
    over.stop,
    undefined,
    `no STOP: the operator consented to this move (${over.verdict?.violations.join('; ')})`,
  );
  t.ok(gate.activeMotion, 'the motion is still running');
});
