import { toBase64Url } from '@pentagate/protocol';
import {
  type Checkpoint,
  TrustStore,
  createNoteSigner,
  ed25519Verify,
  formatCheckpoint,
  noteVerifierKey,
  openNote,
  parseCheckpointBody,
  parseNoteVerifierKey,
  sha256,
  signCheckpoint,
  signNote,
  verifyCheckpoint,
} from '@pentagate/crypto';
import t from 'tap';
import { entryFor, signerFromByte } from './fixtures/keys.js';

// The published example of golang.org/x/mod/sumdb/note (signed-note's reference implementation).
const GO_VKEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const GO_SEED = Buffer.from('AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz', 'base64').subarray(1);
const GO_TEXT =
  "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const GO_NOTE = `${GO_TEXT}\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;

const ORIGIN = 'pentagate.example/audit/tenant-a';
const logSeed = new Uint8Array(32).fill(11);
const logKey = signerFromByte(11);
const noteSigner = createNoteSigner(ORIGIN, logSeed);
const trust = TrustStore.fromDocument({
  keys: [
    entryFor(logKey, 'checkpoint', { name: ORIGIN, notAfter: '2030-01-01T00:00:00Z' }),
    entryFor(signerFromByte(12), 'proof', { name: 'other.example/log' }),
  ],
});
const cp: Checkpoint = { origin: ORIGIN, size: 42, rootHash: sha256(Buffer.from('root')) };

t.test('reproduces the Go sumdb/note example byte for byte', async (t) => {
  const vkey = parseNoteVerifierKey(GO_VKEY);
  t.equal(vkey.name, 'PeterNeumann');
  const signer = createNoteSigner('PeterNeumann', GO_SEED);
  t.same(signer.keyHash, vkey.keyHash);
  t.equal(noteVerifierKey('PeterNeumann', vkey.publicKey), GO_VKEY);
  t.equal(signNote(GO_TEXT, signer), GO_NOTE);
  const opened = openNote(GO_NOTE);
  t.equal(opened.text, GO_TEXT);
  t.ok(ed25519Verify(vkey.publicKey, Buffer.from(GO_TEXT), opened.signatures[0]!.signature));
});

t.test('verifier key strings are parsed strictly', async (t) => {
  t.throws(
    () => parseNoteVerifierKey('PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'),
    /expected key hash c74f20a3/,
  );
  t.throws(() => parseNoteVerifierKey('PeterNeumann+c74f20a3'), /fewer than 3 parts/);
  t.throws(() => parseNoteVerifierKey('PeterNeumann+c74f20a3+AhpjZHE='), /expected 33 bytes/);
  const typed = Buffer.alloc(33, 7);
  t.throws(() => parseNoteVerifierKey(`x+00000000+${typed.toString('base64')}`), /signature type 0x01/);
});

t.test('a signed checkpoint verifies and round-trips', async (t) => {
  const note = signCheckpoint(cp, noteSigner);
  t.equal(note.split('\n')[0], ORIGIN);
  t.match(
    note,
    /^pentagate\.example\/audit\/tenant-a\n42\n[A-Za-z0-9+/]{43}=\n\n\u2014 pentagate\.example\/audit\/tenant-a [A-Za-z0-9+/]{91}=\n$/,
  );
  for (const backend of ['node', 'noble'] as const) {
    const v = verifyCheckpoint(note, trust, { atMs: Date.parse('2029-01-01T00:00:00Z'), backend });
    t.same({ origin: v.origin, size: v.size, rootHash: v.rootHash }, cp);
    t.equal(v.keyid, logKey.keyid);
  }
  t.same(parseCheckpointBody(formatCheckpoint(cp)), cp);
  t.equal(formatCheckpoint({ ...cp, size: 0 }).split('\n')[1], '0');
});

t.test('verification refuses untrusted, expired, mismatched and tampered checkpoints', async (t) => {
  const note = signCheckpoint(cp, noteSigner);
  const stranger = signCheckpoint(cp, createNoteSigner(ORIGIN, new Uint8Array(32).fill(99)));
  t.throws(() => verifyCheckpoint(stranger, trust), {
    code: 'SIGNATURE_INVALID',
    message: /no trusted checkpoint key/,
  });
  t.throws(
    () => verifyCheckpoint(note, trust, { atMs: Date.parse('2031-01-01T00:00:00Z') }),
    /expired at 2030/,
  );
  const wrongRole = signCheckpoint(
    { ...cp, origin: 'other.example/log' },
    createNoteSigner('other.example/log', new Uint8Array(32).fill(12)),
  );
  t.throws(() => verifyCheckpoint(wrongRole, trust), /no trusted checkpoint key named "other.example\/log"/);
  const otherOrigin = signCheckpoint({ ...cp, origin: 'evil.example/log' }, noteSigner);
  t.throws(
    () => verifyCheckpoint(otherOrigin, trust),
    /origin "evil.example\/log" does not match the signing key's name/,
  );
  const biggerSize = note.replace('\n42\n', '\n43\n');
  t.throws(
    () => verifyCheckpoint(biggerSize, trust),
    /line 1 by "pentagate.example\/audit\/tenant-a" does not verify/,
  );
  const both = signCheckpoint(cp, [
    createNoteSigner('witness.example', new Uint8Array(32).fill(5)),
    noteSigner,
  ]);
  t.equal(verifyCheckpoint(both, trust).size, 42, 'unknown co-signers are ignored');
});

t.test('malformed notes and bodies are refused with the reason', async (t) => {
  const note = signCheckpoint(cp, noteSigner);
  const sigLine = note.slice(note.lastIndexOf('\n\n') + 2);
  const cases: [string, RegExp][] = [
    [note.replace('\n\n', '\n'), /expected a blank line before the signatures/],
    [note.slice(0, -1), /last signature line to end with a newline/],
    [note.replace('\u2014', '-'), /expected "— <name> <base64>"/],
    [note.replace(/=\n$/, '\n'), /expected canonical base64|expected base64/],
    [note.replace(`${ORIGIN}\n42`, `${ORIGIN}\n042`), /without leading zeros/],
    [note.replace('\n\n', '\nextension line\n\n'), /extension lines are not accepted/],
    [`${ORIGIN}\n42\n\n${sigLine}`, /expected 3 lines/],
    [note.replace('42', '4\t2'), /control characters/],
    [`${formatCheckpoint(cp)}\n${sigLine.repeat(101)}`, /at most 100 signatures/],
    [`${formatCheckpoint(cp)}\n\u2014 ${ORIGIN} AAAA\n`, /expected a key hash and a signature, got 3 bytes/],
    [`${formatCheckpoint(cp)}\n\u2014 a+b ${sigLine.split(' ')[2]}`, /without spaces or "\+"/],
  ];
  for (const [text, message] of cases)
    t.throws(() => verifyCheckpoint(text, trust), { code: 'INVALID_INPUT', message }, String(message));
  t.throws(() => openNote(42), /expected text, got number/);
  t.throws(
    () => parseCheckpointBody(`${ORIGIN}\n42\n${Buffer.alloc(31).toString('base64')}\n`),
    /root hash: expected 32 bytes, got 31/,
  );
  t.throws(() => parseCheckpointBody(`${ORIGIN}\n42\n`), /expected 3 lines/);
  t.throws(
    () => parseCheckpointBody(`${ORIGIN}\n9007199254740993\n${Buffer.alloc(32).toString('base64')}\n`),
    /size/,
  );
});

t.test('formatting refuses what the format cannot carry', async (t) => {
  t.throws(() => formatCheckpoint({ ...cp, origin: 'two\nlines' }), /checkpoint origin/);
  t.throws(() => formatCheckpoint({ ...cp, origin: ' padded' }), /checkpoint origin/);
  t.throws(() => formatCheckpoint({ ...cp, size: -1 }), /checkpoint size/);
  t.throws(() => formatCheckpoint({ ...cp, rootHash: new Uint8Array(31) }), /expected 32 bytes, got 31/);
  t.throws(() => signNote('no final newline', noteSigner), /end with a newline/);
  t.throws(() => signNote('ok\n', []), /at least one signer/);
  t.throws(() => signNote('lone \ud800 surrogate\n', noteSigner), /valid UTF-8/);
  t.throws(() => createNoteSigner('has space', logSeed), /without spaces/);
  t.equal(toBase64Url(noteSigner.keyHash).length, 6);
});
