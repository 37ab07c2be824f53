import { TrustStore, toGovernanceToken } from '@pentagate/crypto';
import { toBase64 } from '@pentagate/protocol';
import { verifyGovernanceToken, verifyProofPacket } from '@pentagate/verifier';
import t from 'tap';
import {
  T0_MS,
  buildLog,
  checkpointNote,
  decisionStatement,
  iso,
  operatorSigner,
  proofPacket,
  signDecision,
  strangerSigner,
  trustDocument,
} from './fixtures/artifacts.js';

const log = buildLog(7);
const trust = TrustStore.fromDocument(trustDocument());
const atMs = T0_MS + 10_000;
const failedNames = (r: { checks: { name: string; ok: boolean }[] }) =>
  r.checks.filter((c) => !c.ok).map((c) => c.name);

t.test('a logged decision with its inclusion proof and checkpoint is valid', async (t) => {
  const report = verifyProofPacket(proofPacket(log, 4), trust, { atMs });
  t.equal(report.valid, true, report.failures.join('\n'));
  t.same(report.failures, []);
  t.equal(report.subject, 'decision dec_0004 (ALLOW)');
  t.equal(report.at, iso(atMs));
  t.same(
    report.checks.map((c) => c.name),
    [
      'envelope signature',
      'decision statement',
      'subject digest',
      'tenant',
      'signing key valid at issuedAt',
      'expiry',
      'audit entry binds the envelope',
      'audit entry index',
      'checkpoint signature',
      'audit log origin',
      'proof tree size',
      'inclusion in checkpoint',
    ],
  );
});

t.test('a packet without audit anchoring is valid on its signature alone, and says so', async (t) => {
  const { envelope } = proofPacket(log, 2);
  const report = verifyProofPacket({ v: 1, envelope }, trust, { atMs });
  t.equal(report.valid, true);
  t.match(report.checks.find((c) => c.name === 'audit log')?.detail, /not anchored/);
});

t.test('without a time, expiry is not evaluated and no time is reported', async (t) => {
  const report = verifyProofPacket(proofPacket(log, 0), trust);
  t.equal(report.valid, true);
  t.equal(report.at, undefined);
  t.match(report.checks.find((c) => c.name === 'expiry')?.detail, /not evaluated/);
});

t.test('an unknown key id makes the packet invalid and names the kid', async (t) => {
  const packet = { ...proofPacket(log, 0), envelope: signDecision(decisionStatement(0), strangerSigner) };
  const report = verifyProofPacket(packet, trust, { atMs });
  t.equal(report.valid, false);
  t.match(report.failures[0], strangerSigner.keyid);
  t.match(report.failures[0], /unknown key id/);
});

t.test('a statement signed by a trusted key of another role is refused', async (t) => {
  const packet = { v: 1, envelope: signDecision(decisionStatement(0), operatorSigner) };
  const report = verifyProofPacket(packet, trust, { atMs });
  t.equal(report.valid, false);
  t.match(report.failures[0], /role operator, expected proof/);
});

t.test('a proof key whose window does not cover issuedAt is refused; a later rotation is not', async (t) => {
  const expired = TrustStore.fromDocument(trustDocument({ proof: { notAfter: iso(T0_MS - 1) } }));
  const report = verifyProofPacket(proofPacket(log, 0), expired, { atMs });
  t.equal(report.valid, false);
  t.same(failedNames(report), ['signing key valid at issuedAt']);
  t.match(report.failures[0], /expired at/);

  // retired after issuedAt: the signature stands (what it permits ends at the retirement: the next test)
  const rotatedLater = TrustStore.fromDocument(trustDocument({ proof: { notAfter: iso(T0_MS + 20_000) } }));
  t.equal(verifyProofPacket(proofPacket(log, 0), rotatedLater, { atMs }).valid, true);
});

t.test('a decision is invalid after its expiry and before its issue', async (t) => {
  const late = verifyProofPacket(proofPacket(log, 0), trust, { atMs: T0_MS + 60_001 });
  t.same(failedNames(late), ['expiry']);
  t.match(late.failures[0], /expired at 2025-06-01T12:01:00.000Z/);
  const early = verifyProofPacket(proofPacket(log, 2), trust, { atMs: T0_MS });
  t.same(failedNames(early), ['expiry']);
});

t.test('a proof of a refusal (DENY, VETOED) verifies at any later time: a refusal is final', async (t) => {
  // The cloud signs refusals ("proofs of refusals") with expiresAt = issuedAt; checked later, as an auditor
  // does, the packet used to be INVALID "expired at <issuedAt>" though nothing about it had lapsed.
  for (const outcome of ['DENY', 'VETOED'] as const) {
    const statement = decisionStatement(4, { outcome, expiresAt: iso(T0_MS + 4_000) });
    const report = verifyProofPacket({ v: 1, envelope: signDecision(statement) }, trust, {
      atMs: T0_MS + 86_400_000,
    });
    t.equal(report.valid, true, `${outcome}: ${report.failures.join('; ')}`);
    t.match(report.checks.find((c) => c.name === 'expiry')?.detail, /final/);
    const before = verifyProofPacket({ v: 1, envelope: signDecision(statement) }, trust, { atMs: T0_MS });
    t.same(failedNames(before), ['expiry'], `${outcome} checked before it was issued`);
  }
});

t.test('a signed statement that is not a decision statement is invalid', async (t) => {
  const packet = { v: 1, envelope: signDecision({ ...decisionStatement(0), predicateType: 'other' }) };
  const report = verifyProofPacket(packet, trust, { atMs });
  t.same(failedNames(report), ['decision statement']);
  t.match(report.failures[0], /predicateType/);
});

t.test('an audit entry about another envelope does not anchor this one', async (t) => {
  const packet = { ...proofPacket(log, 4), envelope: log.envelopes.get(2)! };
  const report = verifyProofPacket(packet, trust, { atMs });
  t.ok(failedNames(report).includes('audit entry binds the envelope'));
  t.ok(failedNames(report).includes('audit entry index'), 'statement index 2 is not entry index 4');
});

t.test(
  'a proof for another leaf, a truncated proof and a proof for another size do not verify',
  async (t) => {
    const packet = proofPacket(log, 4);
    const otherLeaf = { ...packet, inclusion: { ...packet.inclusion!, leafIndex: 2 } };
    t.ok(failedNames(verifyProofPacket(otherLeaf, trust, { atMs })).includes('inclusion in checkpoint'));
    const truncated = {
      ...packet,
      inclusion: { ...packet.inclusion!, hashes: packet.inclusion!.hashes.slice(1) },
    };
    t.same(failedNames(verifyProofPacket(truncated, trust, { atMs })), ['inclusion in checkpoint']);
    const padded = {
      ...packet,
      inclusion: {
        ...packet.inclusion!,
        hashes: [...packet.inclusion!.hashes, toBase64(new Uint8Array(32))],
      },
    };
    const paddedReport = verifyProofPacket(padded, trust, { atMs });
    t.same(failedNames(paddedReport), ['inclusion in checkpoint']);
    t.match(paddedReport.failures[0], /truncated or padded/);
    t.ok(
      paddedReport.checks.some((c) => c.unreadable),
      'a proof of the wrong length is marked as input that cannot be checked (exit 2)',
    );
    const olderCheckpoint = { ...packet, checkpoint: checkpointNote(log, 6) };
    t.same(failedNames(verifyProofPacket(olderCheckpoint, trust, { atMs })), ['proof tree size']);
  },
);

t.test('an entry index beyond the tree size is reported, not thrown', async (t) => {
  const packet = proofPacket(log, 6);
  const beyond = { ...packet, inclusion: { ...packet.inclusion!, leafIndex: 7 } };
  t.ok(failedNames(verifyProofPacket(beyond, trust, { atMs })).includes('inclusion in checkpoint'));
});

t.test(
  'a checkpoint signed by an untrusted key fails; its origin must be the statement origin',
  async (t) => {
    const noCheckpointKey = TrustStore.fromDocument({ keys: [trustDocument().keys[0]!] });
    const report = verifyProofPacket(proofPacket(log, 0), noCheckpointKey, { atMs });
    t.same(failedNames(report), ['checkpoint signature']);
  },
);

t.test('an incomplete anchoring (entry without proof) is invalid', async (t) => {
  const { inclusion: _inclusion, ...rest } = proofPacket(log, 0);
  const report = verifyProofPacket(rest, trust, { atMs });
  t.same(failedNames(report), ['audit log']);
  t.match(report.failures[0], /without inclusion/);
});

t.test('a packet of the wrong shape is unreadable input, not a verdict', async (t) => {
  t.throws(() => verifyProofPacket({ v: 2 }, trust), { code: 'INVALID_INPUT' });
  t.throws(() => verifyProofPacket('nope', trust), /proof packet/);
  const packet = proofPacket(log, 0);
  const badHash = { ...packet, inclusion: { ...packet.inclusion!, hashes: ['AAAA'] } };
  t.throws(() => verifyProofPacket(badHash, trust, { atMs }), { code: 'INVALID_INPUT' });
});

t.test('a decision whose times are not real instants, or expire before issue, is invalid', async (t) => {
  const rolledOver = {
    v: 1,
    envelope: signDecision(decisionStatement(0, { issuedAt: '2025-02-31T00:00:00Z' })),
  };
  const report = verifyProofPacket(rolledOver, trust, { atMs });
  t.same(failedNames(report), ['decision times']);
  t.match(report.failures[0], /2025-02-31T00:00:00Z/);
  const backwards = decisionStatement(0, { expiresAt: iso(T0_MS - 1) });
  t.same(failedNames(verifyProofPacket({ v: 1, envelope: signDecision(backwards) }, trust, { atMs })), [
    'decision times',
  ]);
});

t.test('inclusionProofLength matches the proofs the Merkle tree produces', async (t) => {
  const { MerkleTree } = await import('@pentagate/crypto');
  const { inclusionProofLength } = await import('../src/inclusion.js');
  const tree = new MerkleTree();
  for (let size = 1; size <= 70; size++) {
    tree.append(new Uint8Array([size]));
    for (let index = 0; index < size; index++) {
      if (tree.inclusionProof(index, size).length !== inclusionProofLength(index, size)) {
        t.fail(`length for leaf ${index} of ${size}`);
        return;
      }
    }
  }
  t.pass('every (index, size) up to 70 agrees');
});

t.test('what a retired key permits ends when it was retired, whatever expiresAt says', async (t) => {
  // Whoever holds a retired key's private half can backdate a statement into the key's window (issuedAt is
  // the signer's word) and give it any expiresAt: such a permission used to verify until then.
  const retiredAtMs = T0_MS + 30_000;
  const retired = TrustStore.fromDocument(trustDocument({ proof: { notAfter: iso(retiredAtMs) } }));
  const backdated = decisionStatement(0, { expiresAt: '2099-01-01T00:00:00.000Z' });
  const envelope = signDecision(backdated);
  const after = verifyProofPacket({ v: 1, envelope }, retired, { atMs: retiredAtMs + 3_600_000 });
  t.same(failedNames(after), ['expiry']);
  t.match(after.failures[0], /expired at .*: its signing key was retired then/);
  const token = toGovernanceToken(envelope);
  t.same(
    failedNames(verifyGovernanceToken(token, retired, { atMs: retiredAtMs + 1 })),
    ['expiry'],
    'the token too',
  );
  // before the retirement it is in force; without a time, the report names the earlier end
  t.equal(verifyProofPacket({ v: 1, envelope }, retired, { atMs: retiredAtMs }).valid, true);
  const untimed = verifyProofPacket({ v: 1, envelope }, retired);
  t.match(
    untimed.checks.find((c) => c.name === 'expiry')?.detail,
    /valid until .*when its signing key was retired/,
  );
  // a key with no end, or one retired after expiresAt, leaves expiresAt as it is
  t.equal(verifyProofPacket(proofPacket(log, 0), trust, { atMs }).valid, true);
});
