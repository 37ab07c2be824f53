import {
  TrustStore,
  createEd25519Signer,
  createNoteSigner,
  signCheckpoint,
  toGovernanceToken,
} from '@pentagate/crypto';
import { canonicalBytes, toBase64 } from '@pentagate/protocol';
import {
  tokenFromFileText,
  verifyCheckpointNote,
  verifyConsistencyFile,
  verifyGovernanceToken,
  verifyInclusionFile,
} from '@pentagate/verifier';
import t from 'tap';
import {
  ORIGIN,
  T0_MS,
  buildLog,
  checkpointNote,
  decisionStatement,
  governanceToken,
  iso,
  signDecision,
  trustDocument,
  trustEntry,
} from './fixtures/artifacts.js';

const log = buildLog(9);
const trust = TrustStore.fromDocument(trustDocument());
const atMs = T0_MS + 10_000;
const failedNames = (r: { checks: { name: string; ok: boolean }[] }) =>
  r.checks.filter((c) => !c.ok).map((c) => c.name);

t.test('governance token: valid, and carried in a propose response', async (t) => {
  const token = governanceToken(log, 2);
  const report = verifyGovernanceToken(token, trust, { atMs });
  t.equal(report.valid, true, report.failures.join('\n'));
  t.equal(report.subject, 'decision dec_0002 (ALLOW)');
  t.equal(tokenFromFileText(`${token}\n`), token, 'surrounding whitespace is not part of the token');
  t.equal(tokenFromFileText(JSON.stringify({ status: 'ALLOW', governance_token: token })), token);
  t.throws(() => tokenFromFileText('{"token": 1}'), /governance_token/);
});

t.test('governance token: expired, unknown kid, and malformed', async (t) => {
  const token = governanceToken(log, 2);
  t.same(failedNames(verifyGovernanceToken(token, trust, { atMs: T0_MS + 70_000 })), ['expiry']);
  const noProofKey = TrustStore.fromDocument({ keys: trustDocument().keys.slice(1) });
  const unknown = verifyGovernanceToken(token, noProofKey, { atMs });
  t.equal(unknown.valid, false);
  t.match(unknown.failures[0], token.split('.')[1]!);
  t.throws(() => verifyGovernanceToken('pgt1.abc', trust), { code: 'INVALID_INPUT' });
});

t.test(
  'governance token: only an approval is a token; a signed refusal or a pending decision is not',
  async (t) => {
    // Every decision is signed (proofs of refusals too) and its envelope is served to the agent, so anyone
    // can compact a REQUIRE_HUMAN, HELD_FOR_VETO, DENY or VETOED envelope into pgt1 form. Such a token must
    // not verify as permission to run the tool.
    for (const outcome of ['REQUIRE_HUMAN', 'HELD_FOR_VETO', 'DENY', 'VETOED'] as const) {
      const token = toGovernanceToken(signDecision(decisionStatement(4, { outcome })));
      const report = verifyGovernanceToken(token, trust, { atMs: T0_MS + 4_000 });
      t.equal(report.valid, false, `${outcome} is not an approval`);
      t.same(failedNames(report), ['outcome'], outcome);
      t.match(report.failures[0], new RegExp(`expected ALLOW or APPROVED, got ${outcome}`));
    }
    for (const outcome of ['ALLOW', 'APPROVED'] as const) {
      const token = toGovernanceToken(signDecision(decisionStatement(4, { outcome })));
      const report = verifyGovernanceToken(token, trust, { atMs: T0_MS + 4_000 });
      t.equal(report.valid, true, `${outcome}: ${report.failures.join('; ')}`);
    }
  },
);

t.test('checkpoint: valid, untrusted signer, key window', async (t) => {
  const note = checkpointNote(log);
  const report = verifyCheckpointNote(note, trust, { atMs });
  t.equal(report.valid, true, report.failures.join('\n'));
  t.equal(report.subject, `checkpoint of ${ORIGIN} at size 9`);

  const forged = signCheckpoint(
    { origin: ORIGIN, size: 9, rootHash: log.tree.rootHash() },
    createNoteSigner(ORIGIN, new Uint8Array(32).fill(9)),
  );
  t.same(failedNames(verifyCheckpointNote(forged, trust, { atMs })), ['checkpoint signature']);

  const retired = TrustStore.fromDocument(trustDocument({ checkpoint: { notAfter: iso(T0_MS) } }));
  const late = verifyCheckpointNote(note, retired, { atMs });
  t.same(failedNames(late), ['checkpoint signature']);
  t.match(
    late.failures[0],
    /expired at .*: a checkpoint carries no time.*Fetch the proof packet again.*--at/,
  );
  t.notMatch(
    verifyCheckpointNote(forged, trust, { atMs }).failures[0],
    /carries no time/,
    'a signature no trusted key made gets no such hint',
  );
  const before = verifyCheckpointNote(note, retired, { atMs: T0_MS - 1 });
  t.equal(before.valid, true, '--at inside the window');
  t.match(
    before.checks[0]?.detail,
    /retired at .*a checkpoint carries no time: this shows the key signed it, not that it did so before/,
    "the report says what a retired key's checkpoint cannot show",
  );

  // A key that began after the time checked, and is not retired, signed the checkpoint later: it still
  // commits to what came before (a proof packet fetched again after a rotation carries one).
  const later = TrustStore.fromDocument(trustDocument({ checkpoint: { notBefore: iso(atMs + 60_000) } }));
  const signedLater = verifyCheckpointNote(note, later, { atMs });
  t.equal(signedLater.valid, true, signedLater.failures.join('\n'));
  t.match(
    signedLater.checks[0]?.detail,
    /valid from .*after the time checked: the checkpoint was signed later/,
  );
  const laterThenRetired = TrustStore.fromDocument(
    trustDocument({ checkpoint: { notBefore: iso(atMs + 60_000), notAfter: iso(atMs + 120_000) } }),
  );
  t.same(
    failedNames(verifyCheckpointNote(note, laterThenRetired, { atMs })),
    ['checkpoint signature'],
    'not when that key is retired too: nothing dates its checkpoint',
  );
});

t.test('inclusion file: by entry or by raw leaf', async (t) => {
  const path = { leafIndex: 3, treeSize: 9, hashes: log.tree.inclusionProof(3).map((h) => toBase64(h)) };
  const checkpoint = checkpointNote(log);
  const byEntry = verifyInclusionFile({ entry: log.entries[3], ...path, checkpoint }, trust, { atMs });
  t.equal(byEntry.valid, true, byEntry.failures.join('\n'));
  t.equal(byEntry.subject, 'audit entry 3 (agent.registered)');
  const leaf = toBase64(canonicalBytes(log.entries[3]));
  t.equal(verifyInclusionFile({ leaf, ...path, checkpoint }, trust, { atMs }).valid, true);

  const wrongEntry = verifyInclusionFile({ entry: log.entries[5], ...path, checkpoint }, trust, { atMs });
  t.same(failedNames(wrongEntry), ['entry index', 'inclusion in checkpoint']);
  const edited = { ...log.entries[3]!, data: { agentId: 'someone-else' } };
  t.same(failedNames(verifyInclusionFile({ entry: edited, ...path, checkpoint }, trust, { atMs })), [
    'inclusion in checkpoint',
  ]);
});

t.test('inclusion file: both or neither of entry/leaf, and bad hashes, are unreadable', async (t) => {
  const path = { leafIndex: 3, treeSize: 9, hashes: log.tree.inclusionProof(3).map((h) => toBase64(h)) };
  const checkpoint = checkpointNote(log);
  t.throws(() => verifyInclusionFile({ ...path, checkpoint }, trust), /exactly one of "entry"/);
  const leaf = toBase64(canonicalBytes(log.entries[3]));
  t.throws(() => verifyInclusionFile({ entry: log.entries[3], leaf, ...path, checkpoint }, trust), /both/);
  t.throws(() => verifyInclusionFile({ leaf, ...path, hashes: ['not base64!'], checkpoint }, trust), {
    code: 'INVALID_INPUT',
  });
  t.throws(() => verifyInclusionFile({ leaf: 'a', ...path, checkpoint }, trust), /base64/);
});

t.test('consistency: a grown log is consistent; a rewritten one is not', async (t) => {
  const oldCheckpoint = checkpointNote(log, 5);
  const newCheckpoint = checkpointNote(log);
  const hashes = log.tree.consistencyProof(5).map((h) => toBase64(h));
  const file = { oldSize: 5, newSize: 9, hashes, oldCheckpoint, newCheckpoint };
  const report = verifyConsistencyFile(file, trust, { atMs });
  t.equal(report.valid, true, report.failures.join('\n'));
  t.equal(report.subject, `consistency of ${ORIGIN} from size 5 to 9`);

  const rewritten = buildLog(9);
  rewritten.entries[1] = { ...rewritten.entries[1]!, data: { agentId: 'rewritten' } };
  const { MerkleTree } = await import('@pentagate/crypto');
  const tree = new MerkleTree();
  for (const e of rewritten.entries) tree.append(canonicalBytes(e));
  const forkNote = checkpointNote({ ...rewritten, tree });
  const forked = verifyConsistencyFile({ ...file, newCheckpoint: forkNote }, trust, { atMs });
  t.same(failedNames(forked), ['consistency']);

  t.same(failedNames(verifyConsistencyFile({ ...file, oldSize: 4 }, trust, { atMs })), ['proof sizes']);
  t.same(failedNames(verifyConsistencyFile({ ...file, hashes: hashes.slice(1) }, trust, { atMs })), [
    'consistency',
  ]);
});

t.test('consistency: checkpoints of two different logs are not compared', async (t) => {
  const otherSeed = new Uint8Array(32).fill(5);
  const other = signCheckpoint(
    { origin: 'other.test/log', size: 9, rootHash: log.tree.rootHash() },
    createNoteSigner('other.test/log', otherSeed),
  );
  const bothLogs = TrustStore.fromDocument({
    keys: [
      ...trustDocument().keys,
      trustEntry(createEd25519Signer(otherSeed), 'checkpoint', { name: 'other.test/log' }),
    ],
  });
  const hashes = log.tree.consistencyProof(5).map((h) => toBase64(h));
  const file = {
    oldSize: 5,
    newSize: 9,
    hashes,
    oldCheckpoint: checkpointNote(log, 5),
    newCheckpoint: other,
  };
  const report = verifyConsistencyFile(file, bothLogs, { atMs });
  t.same(failedNames(report), ['same log']);
});

t.test('consistency: two checkpoints of one size with different roots are named a fork', async (t) => {
  // What a log that rewrote its history, or shows different logs to different auditors, signs: the
  // same size twice, two roots. No proof can connect them, and the report says what that means.
  const [one, other] = [buildLog(9), buildLog(9)];
  one.tree.append(new Uint8Array([1])); // the 10th leaves differ
  other.tree.append(new Uint8Array([2]));
  const file = {
    oldSize: 10,
    newSize: 10,
    hashes: [],
    oldCheckpoint: checkpointNote(one),
    newCheckpoint: checkpointNote(other),
  };
  const report = verifyConsistencyFile(file, trust, { atMs });
  t.same(failedNames(report), ['consistency']);
  t.match(report.failures[0], /two different roots for size 10: the log forked or its history was rewritten/);
});
