/**
 * A copy of an intent (MQTT QoS 1 delivers at least once) is not signed a second time while the motion the
 * first copy started may still run: a base twist signed twice drives its duration twice.
 */
import t from 'tap';
import { MAX_SIGNED_INTENTS, SignedIntents } from '../../src/trap/signed-intents.js';
import { T0, armIntent, baseIntent, baseProfile, feedHealthy, makeGate, proximity } from './fixtures.js';

t.test('a copy of a signed base twist is refused until its motion may have ended', async (t) => {
  const { gate, profile } = makeGate(baseProfile());
  feedHealthy(gate, profile);
  const intent = baseIntent({ intentId: 'int-drive' });
  const first = gate.trapAndSign(intent, T0);
  t.equal(first.kind, 'signed', JSON.stringify(first.verdict.violations));
  if (first.kind !== 'signed') return;
  const endsAtMs = T0 + profile.command.validForMs + intent.durationMs;

  // The copy, redelivered a little later (and as a fresh object: identity is the content, not the reference).
  const copy = gate.trapAndSign(JSON.parse(JSON.stringify(intent)), T0 + 50);
  t.equal(copy.kind, 'veto', 'no command for the copy');
  t.equal(copy.verdict.outcome, 'rejected-input');
  t.equal(copy.verdict.intentId, 'int-drive');
  t.same(copy.verdict.violations, [
    `INPUT.DUPLICATE_INTENT: identical to intent int-drive signed at ${new Date(T0).toISOString()} as command seq ${first.command.seq}, whose motion may run until ${new Date(endsAtMs).toISOString()}; a copy (an MQTT redelivery) is not signed again: send the move with a new intentId to repeat it`,
  ]);
  t.equal(gate.trapAndSign(intent, endsAtMs).kind, 'veto', 'refused up to the last moment it may run');

  // The same id with another move is another request, and so is the same move under a new id.
  const sameId = gate.trapAndSign(baseIntent({ intentId: 'int-drive', durationMs: 1500 }), T0 + 60);
  t.equal(sameId.kind, 'signed', JSON.stringify(sameId.verdict.violations));
  const newId = gate.trapAndSign({ ...intent, intentId: 'int-drive-again' }, T0 + 70);
  t.equal(newId.kind, 'signed', JSON.stringify(newId.verdict.violations));

  // After the motion may have ended, the same intent is a new request and is gated afresh.
  feedHealthy(gate, profile, endsAtMs + 1);
  const later = gate.trapAndSign(intent, endsAtMs + 1);
  t.equal(later.kind, 'signed', JSON.stringify(later.verdict.violations));
});

t.test('a copy of a vetoed intent is gated again: nothing moved', async (t) => {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  gate.ingestTelemetry(proximity(profile.robotId, 'proximity-front', T0, 0.1), T0);
  const intent = armIntent();
  t.equal(gate.trapAndSign(intent, T0).verdict.outcome, 'vetoed');
  gate.ingestTelemetry(proximity(profile.robotId, 'proximity-front', T0 + 50, 3), T0 + 50);
  t.equal(gate.trapAndSign(intent, T0 + 50).kind, 'signed', 'the person left');
});

t.test('a protective STOP does not make the copy signable: it is still the same request', async (t) => {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  const intent = armIntent();
  t.equal(gate.trapAndSign(intent, T0).kind, 'signed');
  gate.protectiveStop('operator pressed stop', T0 + 10);
  t.equal(gate.trapAndSign(intent, T0 + 20).verdict.outcome, 'rejected-input');
});

t.test(
  'the table keeps at most MAX_SIGNED_INTENTS, dropping ended entries and then the oldest',
  async (t) => {
    const table = new SignedIntents();
    const intent = (i: number) => baseIntent({ intentId: `i-${i}` });
    const signing = (i: number, endsAtMs: number) => ({
      intentId: `i-${i}`,
      commandSeq: i,
      signedAtMs: 0,
      endsAtMs,
    });
    for (let i = 1; i <= MAX_SIGNED_INTENTS; i++) table.add(intent(i), signing(i, 10_000 + i), 0);
    t.equal(table.size, MAX_SIGNED_INTENTS);
    table.add(intent(0), { ...signing(0, 5_000), commandSeq: 1_000 }, 0);
    t.equal(table.size, MAX_SIGNED_INTENTS, 'one evicted');
    t.equal(table.running(intent(1), 0), undefined, 'the oldest');
    t.equal(table.running(intent(2), 0)?.commandSeq, 2);
    t.equal(table.running(intent(0), 0)?.commandSeq, 1_000);
    t.equal(table.running(intent(0), 5_001), undefined, 'not after its end');
    t.equal(
      table.running(baseIntent({ intentId: 'i-2', durationMs: 999 }), 0),
      undefined,
      'the same id, another move',
    );
    // Ended entries at the front are dropped as the next signing is recorded.
    table.add(intent(-1), { ...signing(-1, 60_000), commandSeq: 2_000 }, 10_100);
    // i-2 … i-99 ended before 10,100 and go; i-0 ended too, but behind i-100, which still runs (it is skipped).
    t.equal(table.size, MAX_SIGNED_INTENTS + 1 - 98, 'the 98 oldest had ended');
    t.equal(table.running(intent(100), 10_100)?.commandSeq, 100, 'the first still running is kept');
  },
);
