/**
 * The verifier's central promise: changing any byte of a signed artifact never yields VALID. Each run
 * flips one byte (xor with 1..255) of a proof packet, a governance token, a checkpoint note, a file of an
 * audit kit or a motor command, runs the real CLI on it, and accepts exit 1 (invalid) or 2 (unreadable).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeHmacKeyFile } from '@pentagate/crypto';
import fc from 'fast-check';
import t, { type Test } from 'tap';
import {
  T0_MS,
  buildLog,
  checkpointNote,
  governanceToken,
  hmacKey,
  iso,
  proofPacket,
  signMotorCommand,
  tempDir,
  trustDocument,
  unsignedCommand,
  writeKit,
} from './fixtures/artifacts.js';
import { pentagate } from './fixtures/cli.js';

const log = buildLog(5);
const AT = iso(T0_MS + 10_000);
const NUM_RUNS = 150;

function flip(bytes: Uint8Array, position: number, mask: number): Uint8Array {
  const out = new Uint8Array(bytes);
  const i = position % out.length;
  out[i] = out[i]! ^ mask;
  return out;
}

const mutation = fc.record({ position: fc.nat(), mask: fc.integer({ min: 1, max: 255 }) });

/** Checks the untouched artifact is VALID, then that no single-byte change of it is. */
async function neverValid(
  t: Test,
  original: Uint8Array,
  path: string,
  argv: string[],
  skip: (i: number) => boolean = () => false,
) {
  await writeFile(path, original);
  const baseline = await pentagate(...argv);
  t.equal(baseline.code, 0, `the untouched artifact verifies: ${baseline.out}${baseline.err}`);
  await fc.assert(
    fc.asyncProperty(mutation, async ({ position, mask }) => {
      if (skip(position % original.length)) return;
      await writeFile(path, flip(original, position, mask));
      const { code, out } = await pentagate(...argv);
      if (code !== 1 && code !== 2)
        throw new Error(`byte ${position % original.length} ^ ${mask}: exit ${code}\n${out}`);
    }),
    { numRuns: NUM_RUNS },
  );
  await writeFile(path, original);
  t.pass(`${NUM_RUNS} single-byte changes, none valid`);
}

const enc = (s: string) => new TextEncoder().encode(s);

t.test('no single-byte change of a proof packet verifies', async (t) => {
  const dir = await tempDir(t);
  const trust = join(dir, 'trust.json');
  await writeFile(trust, JSON.stringify(trustDocument()));
  const path = join(dir, 'packet.json');
  await neverValid(t, enc(JSON.stringify(proofPacket(log, 2))), path, [
    'verify',
    'proof',
    path,
    '--trust',
    trust,
    '--at',
    AT,
  ]);
});

t.test('no single-byte change of a governance token verifies', async (t) => {
  const dir = await tempDir(t);
  const trust = join(dir, 'trust.json');
  await writeFile(trust, JSON.stringify(trustDocument()));
  const path = join(dir, 'token');
  await neverValid(t, enc(governanceToken(log, 4)), path, [
    'verify',
    'token',
    path,
    '--trust',
    trust,
    '--at',
    AT,
  ]);
});

t.test('no single-byte change of a checkpoint note verifies', async (t) => {
  const dir = await tempDir(t);
  const trust = join(dir, 'trust.json');
  await writeFile(trust, JSON.stringify(trustDocument()));
  const path = join(dir, 'checkpoint.note');
  await neverValid(t, enc(checkpointNote(log)), path, [
    'verify',
    'checkpoint',
    path,
    '--trust',
    trust,
    '--at',
    AT,
  ]);
});

t.test('no single-byte change of a motor command verifies', async (t) => {
  const dir = await tempDir(t);
  const key = join(dir, 'cmd.jwk');
  await writeHmacKeyFile(key, hmacKey);
  const path = join(dir, 'cmd.json');
  await neverValid(t, enc(JSON.stringify(signMotorCommand(hmacKey, unsignedCommand()))), path, [
    'verify',
    'command',
    path,
    '--hmac-key',
    key,
  ]);
});

t.test('no single-byte change of any audit kit file verifies', async (t) => {
  const dir = await tempDir(t);
  const trust = join(dir, 'trust.json');
  await writeFile(trust, JSON.stringify(trustDocument()));
  const kit = await writeKit(dir, log);
  for (const name of ['entries.jsonl', 'checkpoint.note', 'trust.json', 'manifest.json']) {
    const path = join(kit, name);
    const original = new Uint8Array(await readFile(path));
    // manifest.json is not signed: its `createdAt` is information, not evidence (README "Limits"). Every
    // other byte of it is bound to the signed checkpoint (origin, treeSize) or to the files (digests).
    const text = new TextDecoder().decode(original);
    const createdAt = text.indexOf('"createdAt":"') + '"createdAt":"'.length;
    const skip = (i: number) => name === 'manifest.json' && i >= createdAt && i < createdAt + 24;
    await neverValid(t, original, path, ['verify', 'kit', kit, '--trust', trust, '--at', AT], skip);
  }
});
