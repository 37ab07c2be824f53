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
  'the table keeps at most MAX_SIGNED_INTENTS, dropping expired entries and then the one ending first',
  async (t) => {
    const table = new SignedIntents();
    const entry = (i: number, endsAtMs: number) => ({
      intentId: `i-${i}`,
      commandSeq: i,
      signedAtMs: 0,
      endsAtMs,
    });
    for (let i = 0; i < MAX_SIGNED_INTENTS; i++) table.add(`d-${i}`, entry(i, 10_000 + i), 0);
    t.equal(table.size, MAX_SIGNED_INTENTS);
    table.add('d-new', entry(-1, 50_000), 0);
    t.equal(table.size, MAX_SIGNED_INTENTS, 'one evicted');
    t.equal(table.running('d-0', 0), undefined, 'the one ending first');
    t.equal(table.running('d-1', 0)?.commandSeq, 1);
    t.equal(table.running('d-new', 0)?.commandSeq, -1);
    // Past their end, entries are forgotten when asked for, and swept when the table is full.
    t.equal(table.running('d-1', 10_002), undefined);
    table.add('d-late', entry(-2, 60_000), 20_000);
    t.equal(table.size, MAX_SIGNED_INTENTS, 'nothing swept while there is room');
    table.add('d-later', entry(-3, 60_000), 20_000);
    t.equal(table.size, 3, 'every expired entry swept once the table overflowed');
    t.equal(table.running('d-new', 20_000)?.commandSeq, -1);
  },
);
