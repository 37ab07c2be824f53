import { TrustStore, jcsDigestHex } from '@pentagate/crypto';
import { verifyConsentToken, verifyMotorCommand } from '@pentagate/verifier';
import t from 'tap';
import {
  ROBOT_ID,
  T0_MS,
  consentStatement,
  hmacKey,
  intent,
  iso,
  proofSigner,
  signConsent,
  signMotorCommand,
  strangerSigner,
  trustDocument,
  unsignedCommand,
} from './fixtures/artifacts.js';

const trust = TrustStore.fromDocument(trustDocument());
const failedNames = (r: { checks: { name: string; ok: boolean }[] }) =>
  r.checks.filter((c) => !c.ok).map((c) => c.name);
const command = signMotorCommand(hmacKey, unsignedCommand());
const otherKey = new Uint8Array(32).fill(8);

t.test('motor command: a correctly signed command is valid without reading a clock', async (t) => {
  const report = verifyMotorCommand(command, { hmacKey });
  t.equal(report.valid, true, report.failures.join('\n'));
  t.equal(report.at, undefined);
  t.equal(report.subject, `motor command seq 7 epoch 3 for ${ROBOT_ID} (twist)`);
  t.match(report.checks.find((c) => c.name === 'validity window')?.detail, /not evaluated/);
  t.equal(verifyMotorCommand(command, { hmacKey: [otherKey, hmacKey] }).valid, true, 'one of several keys');
});

t.test('motor command: an edited field or a foreign key fails the MAC', async (t) => {
  t.same(failedNames(verifyMotorCommand({ ...command, seq: 8 }, { hmacKey })), ['command MAC']);
  const foreign = signMotorCommand(otherKey, unsignedCommand({ kid: command.kid }));
  t.same(failedNames(verifyMotorCommand(foreign, { hmacKey })), ['command MAC']);
});

t.test('motor command: an unknown kid is invalid and named', async (t) => {
  const report = verifyMotorCommand(command, { hmacKey: otherKey });
  t.same(failedNames(report), ['command key']);
  t.match(report.failures[0], command.kid);
});

t.test('motor command: --at checks the validity window', async (t) => {
  t.equal(verifyMotorCommand(command, { hmacKey, atMs: T0_MS + 100 }).valid, true);
  const late = verifyMotorCommand(command, { hmacKey, atMs: T0_MS + 201 });
  t.same(failedNames(late), ['validity window']);
  t.equal(late.at, iso(T0_MS + 201));
  t.same(failedNames(verifyMotorCommand(command, { hmacKey, atMs: T0_MS - 501 })), ['validity window']);
});

t.test('motor command: with a controller state, the acceptance function decides', async (t) => {
  const state = { robotId: ROBOT_ID, epoch: 3, lastSeq: 6 };
  t.equal(verifyMotorCommand(command, { hmacKey, state, atMs: T0_MS + 50 }).valid, true);
  const replay = verifyMotorCommand(command, { hmacKey, state: { ...state, lastSeq: 7 }, atMs: T0_MS + 50 });
  t.same(failedNames(replay), ['controller acceptance']);
  t.match(replay.failures[0], /replayed-seq/);
  const stale = verifyMotorCommand(command, { hmacKey, state: { ...state, epoch: 4 }, atMs: T0_MS + 50 });
  t.match(stale.failures[0], /stale-epoch/);
  t.throws(() => verifyMotorCommand(command, { hmacKey, state }), /needs a time/);
});

t.test('motor command: the wrong shape is unreadable input', async (t) => {
  t.throws(() => verifyMotorCommand({ ...command, extra: 1 }, { hmacKey }), { code: 'INVALID_INPUT' });
  t.throws(() => verifyMotorCommand({ ...command, mac: 'short' }, { hmacKey }), /mac/);
});

const consent = signConsent(consentStatement());
const atMs = T0_MS + 1_000;

t.test('consent: valid for its intent and robot inside its window', async (t) => {
  const report = verifyConsentToken(consent, trust, { intent, robotId: ROBOT_ID, atMs });
  t.equal(report.valid, true, report.failures.join('\n'));
  t.equal(report.subject, `consent of op-1 for ${ROBOT_ID} (high-torque)`);
  t.match(report.checks.find((c) => c.name === 'binds the intent')?.detail, jcsDigestHex(intent));
});

t.test('consent: another intent, another robot, outside the window', async (t) => {
  const other = verifyConsentToken(consent, trust, {
    intent: { ...intent, torqueNm: 80 },
    robotId: 'arm-8',
    atMs,
  });
  t.same(failedNames(other), ['robot', 'binds the intent']);
  t.same(failedNames(verifyConsentToken(consent, trust, { atMs: T0_MS + 30_001 })), ['consent window']);
  t.same(failedNames(verifyConsentToken(consent, trust, { atMs: T0_MS - 1 })), ['consent window']);
});

t.test(
  'consent: signed by a non-operator or unknown key, or an operator key out of its window',
  async (t) => {
    t.match(
      verifyConsentToken(signConsent(consentStatement(), proofSigner), trust, { atMs }).failures[0],
      /role proof/,
    );
    const unknown = verifyConsentToken(signConsent(consentStatement(), strangerSigner), trust, { atMs });
    t.match(unknown.failures[0], strangerSigner.keyid);
    const retired = TrustStore.fromDocument(trustDocument({ operator: { notAfter: iso(T0_MS + 500) } }));
    t.same(failedNames(verifyConsentToken(consent, retired, { atMs })), [
      'signing key valid at the given time',
    ]);
  },
);

t.test(
  'consent: a signed payload that is not a consent statement is invalid; a bad envelope unreadable',
  async (t) => {
    const notConsent = signConsent({ ...consentStatement(), scope: 'anything' });
    t.same(failedNames(verifyConsentToken(notConsent, trust, { atMs })), ['consent statement']);
    t.throws(() => verifyConsentToken({ payloadType: 'x' }, trust), { code: 'INVALID_INPUT' });
  },
);

t.test(
  'consent: without a time, the window is not evaluated and the key is checked at notBefore',
  async (t) => {
    const report = verifyConsentToken(consent, trust);
    t.equal(report.valid, true);
    t.equal(report.at, undefined);
    t.ok(report.checks.some((c) => c.name === 'signing key valid at notBefore'));
  },
);

t.test('consent: a window that ends before it starts is invalid at any time', async (t) => {
  const backwards = signConsent(consentStatement({ notBefore: T0_MS + 10, expiresAt: T0_MS }));
  const report = verifyConsentToken(backwards, trust, { atMs: T0_MS + 5 });
  t.same(failedNames(report), ['consent window']);
  t.match(report.failures[0], /expected notBefore ≤ expiresAt/);
});

t.test('consent: a key enrolled for one operator does not sign for another', async (t) => {
  // the tenant's operator keys (GET …/operator-keys) name the operator each is enrolled for; the edge and the
  // cloud refuse a statement naming anyone else, so the verifier must not report it as that person's consent
  const named = (name: string) => TrustStore.fromDocument(trustDocument({ operator: { name } }));
  const forged = verifyConsentToken(consent, named('op-2'), { atMs });
  t.same(failedNames(forged), ['operator']);
  t.match(forged.failures[0], /enrolled for operator op-2, the statement names op-1/);
  const own = verifyConsentToken(consent, named('op-1'), { atMs });
  t.equal(own.valid, true, own.failures.join('\n'));
  t.match(own.checks.find((c) => c.name === 'operator')?.detail, /enrolled for op-1/);
  t.match(
    verifyConsentToken(consent, trust, { atMs }).checks.find((c) => c.name === 'operator')?.detail,
    /names no operator/,
    'a key the trust file names no operator for (a profile trust file) may sign for any',
  );
});
