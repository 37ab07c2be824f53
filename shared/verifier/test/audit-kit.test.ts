import { readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  MerkleTree,
  TrustStore,
  createEd25519Signer,
  createNoteSigner,
  envelopeDigest,
  signCheckpoint,
} from '@pentagate/crypto';
import { canonicalBytes, canonicalize } from '@pentagate/protocol';
import { verifyAuditKit } from '@pentagate/verifier';
import t from 'tap';
import {
  ORIGIN,
  T0_MS,
  buildLog,
  checkpointNote,
  decisionStatement,
  iso,
  signDecision,
  strangerSigner,
  tempDir,
  trustDocument,
  trustEntry,
  writeKit,
  writeManifest,
} from './fixtures/artifacts.js';

const log = buildLog(11);
const trust = TrustStore.fromDocument(trustDocument());
const atMs = T0_MS + 20_000;
const failedNames = (r: { checks: { name: string; ok: boolean }[] }) =>
  r.checks.filter((c) => !c.ok).map((c) => c.name);

async function kitFiles(dir: string): Promise<Record<string, string>> {
  const names = ['checkpoint.note', 'entries.jsonl', 'trust.json'];
  return Object.fromEntries(
    await Promise.all(names.map(async (n) => [n, await readFile(join(dir, n), 'utf8')])),
  );
}

t.test('a kit written per the contract verifies end to end', async (t) => {
  const dir = await writeKit(await tempDir(t), log);
  const report = await verifyAuditKit(dir, { trust, atMs });
  t.equal(report.valid, true, report.failures.join('\n'));
  t.equal(report.subject, `audit kit of ${ORIGIN} at size 11`);
  t.match(report.checks.find((c) => c.name === 'signed entries')?.detail, /all 6 DSSE envelopes/);
  t.match(report.checks.find((c) => c.name === 'Merkle root')?.detail, /11 entries/);
});

t.test(
  "without a trust anchor the kit's own trust.json shows self-consistency only, and the kit is not valid",
  async (t) => {
    const dir = await writeKit(await tempDir(t), log);
    const report = await verifyAuditKit(dir);
    t.same(failedNames(report), ['trust anchor'], "every other check ran, on the kit's own keys, and passed");
    t.match(report.failures[0], /expected --trust with keys obtained independently.*self-asserted/);
    const asked = await verifyAuditKit(dir, { selfAssertedTrust: true });
    t.equal(asked.valid, true, asked.failures.join('\n'));
    t.match(asked.checks.find((c) => c.name === 'trust anchor')?.detail, /self-asserted.*not who signed it/);
  },
);

t.test("a checkpoint over entries appended after its key's retirement is refused", async (t) => {
  // entries are appended at T0 + index s; the checkpoint key was retired at T0 + 5.5 s
  const retired = TrustStore.fromDocument(trustDocument({ checkpoint: { notAfter: iso(T0_MS + 5_500) } }));
  const dir = await writeKit(await tempDir(t), log);
  // "as of" a time before the retirement, the checkpoint's signature passes: only the entries date it
  const late = await verifyAuditKit(dir, { trust: retired, atMs: T0_MS + 5_000 });
  t.same(failedNames(late), ['checkpoint key retirement']);
  t.match(
    late.failures[0],
    /got 5 later \(entry 6 at 2025-06-01T12:00:06\.000Z\): the checkpoint was signed after its key's retirement/,
  );
  const early = await verifyAuditKit(await writeKit(await tempDir(t), buildLog(5)), {
    trust: retired,
    atMs: T0_MS + 5_000,
  });
  t.equal(early.valid, true, early.failures.join('\n'));
  t.match(
    early.checks.find((c) => c.name === 'checkpoint key retirement')?.detail,
    /every entry was appended by 2025-06-01T12:00:05\.500Z/,
  );
  const current = await verifyAuditKit(dir, { trust, atMs });
  t.notOk(
    current.checks.some((c) => c.name === 'checkpoint key retirement'),
    'a key never retired needs no such check',
  );
});

t.test('a kit whose log was signed by keys the auditor does not trust is invalid', async (t) => {
  const rogue = buildLog(3);
  const dir = await writeKit(await tempDir(t), rogue);
  const rogueSeed = new Uint8Array(32).fill(8);
  const note = signCheckpoint(
    { origin: ORIGIN, size: 3, rootHash: rogue.tree.rootHash() },
    createNoteSigner(ORIGIN, rogueSeed),
  );
  const files = await kitFiles(dir);
  files['checkpoint.note'] = note;
  files['trust.json'] = JSON.stringify({
    keys: [trustEntry(createEd25519Signer(rogueSeed), 'checkpoint', { name: ORIGIN })],
  });
  for (const [n, body] of Object.entries(files)) await writeFile(join(dir, n), body);
  await writeManifest(dir, files, 3);
  t.equal(
    (await verifyAuditKit(dir, { selfAssertedTrust: true })).valid,
    false,
    'its own trust.json lacks the proof key of the entries',
  );
  const report = await verifyAuditKit(dir, { trust });
  t.same(failedNames(report), ['checkpoint signature']);
});

t.test('an edited entry breaks the manifest digest; re-hashing it breaks the Merkle root', async (t) => {
  const dir = await writeKit(await tempDir(t), log);
  const files = await kitFiles(dir);
  const entries = log.entries.map((e) => (e.index === 3 ? { ...e, data: { agentId: 'mallory' } } : e));
  files['entries.jsonl'] = entries.map((e) => `${canonicalize(e)}\n`).join('');
  await writeFile(join(dir, 'entries.jsonl'), files['entries.jsonl']);
  t.same(failedNames(await verifyAuditKit(dir, { trust })), ['digest of entries.jsonl']);
  await writeManifest(dir, files, 11);
  t.same(failedNames(await verifyAuditKit(dir, { trust })), ['Merkle root']);
});

t.test('a kit that drops the last entries is not the log the checkpoint signed', async (t) => {
  const dir = await writeKit(await tempDir(t), log);
  const files = await kitFiles(dir);
  files['entries.jsonl'] = log.entries
    .slice(0, 10)
    .map((e) => `${canonicalize(e)}\n`)
    .join('');
  await writeFile(join(dir, 'entries.jsonl'), files['entries.jsonl']);
  await writeManifest(dir, files, 11);
  const report = await verifyAuditKit(dir, { trust });
  t.same(failedNames(report), ['entries', 'Merkle root']);
  t.match(report.failures[0], /expected 11 lines \(the checkpoint size\), got 10/);
});

t.test('entries must be canonical JCS, index-sequential from 0, newline-terminated', async (t) => {
  const small = buildLog(3);
  const dir = await writeKit(await tempDir(t), small);
  const files = await kitFiles(dir);
  const lines = small.entries.map((e) => canonicalize(e));
  const variants: [string, string, RegExp][] = [
    [
      'pretty',
      `${JSON.stringify(small.entries[0], null, 1).replace(/\n/g, '')}\n${lines[1]}\n${lines[2]}\n`,
      /canonical JCS/,
    ],
    ['swapped', `${lines[1]}\n${lines[0]}\n${lines[2]}\n`, /line 1: expected index 0, got 1/],
    ['unterminated', `${lines.join('\n')}`, /end with \\n/],
    ['not JSON', `${lines[0]}\n{oops\n${lines[2]}\n`, /line 2: expected JSON/],
    ['not an entry', `${lines[0]}\n{"v":1}\n${lines[2]}\n`, /line 2: not an audit entry/],
  ];
  for (const [label, body, message] of variants) {
    files['entries.jsonl'] = body;
    await writeFile(join(dir, 'entries.jsonl'), body);
    await writeManifest(dir, files, 3);
    const report = await verifyAuditKit(dir, { trust });
    t.equal(report.valid, false, label);
    t.match(report.failures.join('\n'), message, label);
  }
});

t.test(
  'an entry carrying an envelope that does not verify, or does not match its digest, fails',
  async (t) => {
    const forged = buildLog(3);
    const stranger = signDecision(decisionStatement(0), strangerSigner);
    forged.entries[0] = { ...forged.entries[0]!, data: { ...forged.entries[0]!.data, envelope: stranger } };
    forged.entries[2] = { ...forged.entries[2]!, subjectDigest: '0'.repeat(64) };
    forged.tree = new MerkleTree();
    for (const e of forged.entries) forged.tree.append(canonicalBytes(e));
    const dir = await writeKit(await tempDir(t), forged);
    const report = await verifyAuditKit(dir, { trust });
    t.same(failedNames(report), ['signed entries']);
    t.match(report.failures[0], /2 of 2 DSSE envelopes do not verify/);
    t.match(report.failures[0], /entry 0 \(decision\)/);
    t.match(report.failures[0], /entry 2 \(decision\): expected subjectDigest/);
  },
);

t.test("a decision statement in the log signed by an 'edge' key is not a signed decision", async (t) => {
  // in-toto envelopes may be signed by 'proof' or 'edge' keys, but a decision is the cloud's word only: a
  // proof packet takes a 'proof' key, and the same statement in a kit must not pass with less
  const edgeSigner = createEd25519Signer(new Uint8Array(32).fill(6));
  const withEdge = TrustStore.fromDocument({
    keys: [...trustDocument().keys, trustEntry(edgeSigner, 'edge')],
  });
  const forged = buildLog(3);
  const envelope = signDecision(decisionStatement(2), edgeSigner);
  forged.entries[2] = {
    ...forged.entries[2]!,
    subjectDigest: envelopeDigest(envelope),
    data: { ...forged.entries[2]!.data, envelope },
  };
  forged.tree = new MerkleTree();
  for (const e of forged.entries) forged.tree.append(canonicalBytes(e));
  const dir = await writeKit(await tempDir(t), forged);
  const report = await verifyAuditKit(dir, { trust: withEdge });
  t.same(failedNames(report), ['signed entries']);
  t.match(report.failures[0], /entry 2 \(decision\): .*role edge, expected proof/);
});

t.test('missing, unlisted and linked files are reported', async (t) => {
  const dir = await writeKit(await tempDir(t), log);
  await writeFile(join(dir, 'extra.txt'), 'hello');
  t.same(failedNames(await verifyAuditKit(dir, { trust })), ['no unlisted files']);
  await rm(join(dir, 'extra.txt'));
  await rm(join(dir, 'trust.json'));
  await symlink('/etc/hostname', join(dir, 'trust.json'));
  t.same(failedNames(await verifyAuditKit(dir, { trust })), ['digest of trust.json']);
  await rm(join(dir, 'trust.json'));
  t.same(failedNames(await verifyAuditKit(dir, { trust })), ['digest of trust.json']);
});

t.test('a manifest that does not list the kit files, or names another log, is invalid', async (t) => {
  const dir = await writeKit(await tempDir(t), log);
  const files = await kitFiles(dir);
  const { 'trust.json': _trust, ...noTrust } = files;
  await rm(join(dir, 'trust.json'));
  await writeManifest(dir, noTrust, 11);
  t.same(failedNames(await verifyAuditKit(dir, { trust })), ['manifest lists the kit files']);
  await writeManifest(dir, files, 12);
  await writeFile(join(dir, 'trust.json'), files['trust.json']!);
  t.same(failedNames(await verifyAuditKit(dir, { trust })), ['checkpoint matches manifest']);
});

t.test('a manifest listing a file beyond the kit own is invalid: nothing signs it', async (t) => {
  const dir = await writeKit(await tempDir(t), log);
  await writeFile(join(dir, 'x.json'), '');
  await writeManifest(dir, { ...(await kitFiles(dir)), 'x.json': '' }, 11);
  const report = await verifyAuditKit(dir, { trust });
  t.same(failedNames(report), ['manifest lists the kit files']);
  t.match(report.failures[0], /got also x\.json \(nothing signs them\)/);
});

t.test('an unreadable manifest or a path that is not a directory is unreadable input', async (t) => {
  const parent = await tempDir(t);
  await t.rejects(verifyAuditKit(join(parent, 'nothing')), { code: 'INVALID_INPUT' });
  const dir = await writeKit(parent, log);
  await t.rejects(verifyAuditKit(join(dir, 'entries.jsonl')), /expected a directory/);
  await writeFile(join(dir, 'manifest.json'), '{"v":1');
  await t.rejects(verifyAuditKit(dir, { trust }), /audit kit manifest/);
  await writeFile(
    join(dir, 'manifest.json'),
    JSON.stringify({ v: 1, origin: ORIGIN, treeSize: 1, createdAt: 'x', files: {} }),
  );
  await t.rejects(verifyAuditKit(dir, { trust }), { code: 'INVALID_INPUT' });
  await writeFile(
    join(dir, 'manifest.json'),
    JSON.stringify({
      v: 1,
      origin: ORIGIN,
      treeSize: 1,
      createdAt: '2025-06-01T00:00:00Z',
      files: { '../x': '0'.repeat(64) },
    }),
  );
  await t.rejects(verifyAuditKit(dir, { trust }), /files/, 'a path outside the kit is refused by the schema');
});

t.test('an empty log (size 0) is a valid kit', async (t) => {
  const empty = buildLog(0);
  const dir = await writeKit(await tempDir(t), empty);
  const report = await verifyAuditKit(dir, { trust });
  t.equal(report.valid, true, report.failures.join('\n'));
  t.equal(checkpointNote(empty).split('\n')[1], '0');
});
