/**
 * Intents waiting for consent are held in memory (and posted to the cloud's approvals queue) until their
 * timeout. Without a bound, a planner flooding safety-critical intents grew that map until the edge ran out of
 * memory, and a dead edge monitors no running motion. At most MAX_CONSENT_WAITS wait; a further one is vetoed
 * with CONSENT.TOO_MANY_WAITING (fail closed), and room comes back as waits end.
 */
import { hasEdgeViolation } from '@pentagate/protocol';
import t from 'tap';
import { MAX_CONSENT_WAITS } from '../../src/trap/consent-waits.js';
import { T0, armIntent, consent, feedHealthy, makeGate } from './fixtures.js';

const critical = (i: number) => armIntent({ intentId: `critical-${i}`, safetyCritical: true });

t.test('at most MAX_CONSENT_WAITS intents wait for consent; the next is vetoed', async (t) => {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  for (let i = 0; i < MAX_CONSENT_WAITS; i++) {
    const r = gate.trapAndSign(critical(i), T0 + 1);
    if (r.kind !== 'awaiting-consent') return t.fail(`intent ${i}: ${r.kind}`);
  }
  const over = gate.trapAndSign(critical(MAX_CONSENT_WAITS), T0 + 1);
  t.equal(over.kind, 'veto');
  t.ok(
    hasEdgeViolation(over.verdict.violations, 'CONSENT.TOO_MANY_WAITING'),
    over.verdict.violations.join('; '),
  );
  t.ok(hasEdgeViolation(over.verdict.violations, 'CONSENT.REQUIRED'), 'and says what it waited for');
  t.equal(gate.waitingConsents().length, MAX_CONSENT_WAITS, 'nothing more is held');

  const again = gate.trapAndSign(critical(3), T0 + 2);
  t.equal(again.kind, 'awaiting-consent', 'an intent that already waits is re-parked, not refused');

  const granted = gate.submitConsent(consent(critical(0)), T0 + 3);
  t.equal(granted.kind, 'signed', 'consent still releases a waiting intent');
  t.equal(gate.trapAndSign(critical(MAX_CONSENT_WAITS), T0 + 4).kind, 'awaiting-consent', 'room came back');
});

t.test('waits that time out make room', async (t) => {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  for (let i = 0; i < MAX_CONSENT_WAITS; i++) gate.trapAndSign(critical(i), T0 + 1);
  const expired = gate.expireConsents(T0 + 1 + profile.consent.timeoutMs);
  t.equal(expired.length, MAX_CONSENT_WAITS);
  const at = T0 + 2 + profile.consent.timeoutMs;
  feedHealthy(gate, profile, at);
  t.equal(gate.trapAndSign(critical(MAX_CONSENT_WAITS), at).kind, 'awaiting-consent');
});
