/**
 * Consent statements stay single use across an edge restart (ARCHITECTURE.md §4 CONSENT). Before, spent
 * nonces lived only in memory: after a restart the planner (or anyone who can publish intents) re-sent a
 * consented intent and the old statement, still inside its validity window, released it a second time.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileSpentConsentNonces, MemorySequenceStore } from '@pentagate/edge';
import t, { type Test } from 'tap';
import { T0, armIntent, consent, feedHealthy, makeGate } from './fixtures.js';

const NONCE_A = 'nonce-restart-000001';
const NONCE_B = 'nonce-restart-000002';

t.test('a statement spent before a restart does not release the re-sent intent after it', async (t) => {
  const path = join(t.testdir(), 'consent-nonces.json');
  const sequence = new MemorySequenceStore();
  const intent = armIntent({ intentId: 'int-restart', safetyCritical: true });
  const token = consent(intent, { nonce: NONCE_A, expiresAt: T0 + 60_000 });

  const first = makeGate(undefined, sequence, FileSpentConsentNonces.open(path, T0));
  feedHealthy(first.gate, first.profile);
  t.equal(first.gate.trapAndSign(intent, T0).kind, 'awaiting-consent');
  t.equal(first.gate.submitConsent(token, T0).kind, 'signed', 'the statement releases its intent once');

  // the edge restarts (no shutdown hook ran) with the same state directory
  const second = makeGate(undefined, sequence, FileSpentConsentNonces.open(path, T0));
  feedHealthy(second.gate, second.profile);
  t.equal(second.gate.trapAndSign(intent, T0).kind, 'awaiting-consent', 'the re-sent intent waits again');
  const replayed = second.gate.submitConsent(token, T0);
  t.equal(replayed.kind, 'veto');
  t.match(replayed.verdict.violations[0], /^CONSENT\.REPLAYED: nonce nonce-restart-000001 was already used/);
  const fresh = consent(intent, { nonce: NONCE_B, expiresAt: T0 + 60_000 });
  t.equal(second.gate.submitConsent(fresh, T0).kind, 'signed', 'a fresh statement still releases it');
});

t.test('the file keeps unexpired nonces only, is private, and names what is wrong with it', async (t) => {
  const dir = t.testdir();
  const path = join(dir, 'consent-nonces.json');
  const a = FileSpentConsentNonces.open(path, T0);
  t.equal(statSync(path).mode & 0o777, 0o600, 'only the edge reads its state');
  a.spend(NONCE_A, T0 + 1_000);
  a.spend(NONCE_B, T0 + 5_000);
  const reopened = FileSpentConsentNonces.open(path, T0 + 2_000);
  t.notOk(reopened.has(NONCE_A), 'a nonce whose statement expired is forgotten');
  t.ok(reopened.has(NONCE_B));
  t.same(JSON.parse(readFileSync(path, 'utf8')).spent, [{ nonce: NONCE_B, expiresAt: T0 + 5_000 }]);
  reopened.forgetExpired(T0 + 6_000);
  t.notOk(reopened.has(NONCE_B));

  const damaged = join(dir, 'damaged.json');
  writeFileSync(damaged, '{"v":1,"spent":[{"nonce":"short","expiresAt":1}]}');
  t.throws(() => FileSpentConsentNonces.open(damaged, T0), {
    code: 'CONSENT_NONCES',
    message: /damaged\.json: expected \{ v: 1, forgottenBefore\?, spent: \[\{ nonce, expiresAt \}\] \}/,
  });
  writeFileSync(damaged, '{"v":1,');
  t.throws(() => FileSpentConsentNonces.open(damaged, T0), {
    code: 'CONSENT_NONCES',
    message: /are damaged/,
  });
});

t.test('a spend that cannot reach the disk releases nothing and is not remembered', async (t) => {
  const path = join(t.testdir(), 'consent-nonces.json');
  const nonces = FileSpentConsentNonces.open(path, T0);
  // a directory where the temporary file goes fails the write, whoever runs the test (root ignores modes)
  mkdirSync(`${path}.tmp`);
  await check(t, nonces);
});

async function check(t: Tap, nonces: FileSpentConsentNonces): Promise<void> {
  const { gate, profile } = makeGate(undefined, undefined, nonces);
  feedHealthy(gate, profile);
  const intent = armIntent({ intentId: 'int-disk', safetyCritical: true });
  t.equal(gate.trapAndSign(intent, T0).kind, 'awaiting-consent');
  const result = gate.submitConsent(consent(intent, { nonce: NONCE_A }), T0);
  t.not(result.kind, 'signed', 'not signed when the spend is not on disk');
  t.match(result.verdict.violations.join(' '), /cannot record spent consent nonce/);
  t.notOk(nonces.has(NONCE_A), 'the nonce is not counted as spent');
}

type Tap = Test;

t.test('a clock that steps forward and back does not make a spent statement usable again', async (t) => {
  const path = join(t.testdir(), 'consent-nonces.json');
  const { gate, profile } = makeGate(undefined, undefined, FileSpentConsentNonces.open(path, T0));
  feedHealthy(gate, profile);
  const intent = armIntent({ intentId: 'int-clock', safetyCritical: true });
  const token = consent(intent, { nonce: NONCE_A, expiresAt: T0 + 60_000 });
  t.equal(gate.trapAndSign(intent, T0).kind, 'awaiting-consent');
  t.equal(gate.submitConsent(token, T0).kind, 'signed');
  // the clock steps 2 minutes ahead: the expiry sweep forgets the nonce, its statement being past expiry
  gate.expireConsents(T0 + 120_000);
  // and is corrected back: by the edge clock the statement is inside its window again
  feedHealthy(gate, profile, T0 + 10_000);
  t.equal(gate.trapAndSign(intent, T0 + 10_000).kind, 'awaiting-consent');
  const replayed = gate.submitConsent(token, T0 + 10_000);
  t.equal(replayed.kind, 'veto');
  t.match(
    replayed.verdict.violations[0],
    /^CONSENT\.REPLAYED: consent valid until .* the edge clock went back/,
  );
  const fresh = consent(intent, { nonce: NONCE_B, expiresAt: T0 + 200_000 });
  t.equal(
    gate.submitConsent(fresh, T0 + 10_000).kind,
    'signed',
    'a statement valid past that time still works',
  );
  t.equal(
    FileSpentConsentNonces.open(path, T0 + 10_000).forgottenBeforeMs(),
    T0 + 120_000,
    'the time nonces were forgotten up to is kept with the file across a restart',
  );
});

t.test('an expired statement is still reported as expired, not as replayed', async (t) => {
  const { gate, profile } = makeGate();
  feedHealthy(gate, profile);
  const intent = armIntent({ intentId: 'int-late', safetyCritical: true });
  t.equal(gate.trapAndSign(intent, T0).kind, 'awaiting-consent');
  gate.expireConsents(T0);
  const late = gate.submitConsent(consent(intent, { nonce: NONCE_A, expiresAt: T0 - 1 }), T0);
  t.match(late.verdict.violations[0], /^CONSENT\.EXPIRED/);
});
