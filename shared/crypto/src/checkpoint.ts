/**
 * Transparency-log checkpoints (c2sp.org/tlog-checkpoint) carried as signed notes:
 *
 *   <origin>\n<tree size, decimal>\n<base64(root hash)>\n
 *
 * Extension lines after the root hash are refused: Pentagate logs never write them, and a verifier
 * should not accept signed content it does not understand.
 */
import { InvalidInputError, type KeyRole, fromBase64, toBase64 } from '@pentagate/protocol';
import { type Ed25519Backend, ed25519Verify } from './ed25519.js';
import { SignatureError, assertBytes } from './errors.js';
import { MERKLE_HASH_BYTES } from './merkle-hash.js';
import { type NoteSigner, noteKeyHash, openNote, signNote } from './signed-note.js';
import { timingSafeEqual } from './timing-safe-equal.js';
import type { TrustStore } from './trust-store.js';
import { utf8Bytes } from '@pentagate/protocol';

export interface Checkpoint {
  origin: string;
  size: number;
  rootHash: Uint8Array;
}

const CHECKPOINT_ROLE: KeyRole[] = ['checkpoint'];
const SIZE_RE = /^(?:0|[1-9][0-9]*)$/;

function assertOrigin(origin: unknown, what: string): string {
  if (
    typeof origin !== 'string' ||
    origin.length === 0 ||
    origin.trim() !== origin ||
    /\p{Cc}/u.test(origin)
  ) {
    throw new InvalidInputError(
      `${what}: expected a non-empty line without control characters or edge spaces, got ${JSON.stringify(origin)}`,
    );
  }
  return origin;
}

export function formatCheckpoint(cp: Checkpoint): string {
  const origin = assertOrigin(cp.origin, 'checkpoint origin');
  if (!Number.isSafeInteger(cp.size) || cp.size < 0) {
    throw new InvalidInputError(`checkpoint size: expected an integer from 0 to 2^53 - 1, got ${cp.size}`);
  }
  assertBytes(cp.rootHash, 'checkpoint root hash', MERKLE_HASH_BYTES);
  return `${origin}\n${cp.size}\n${toBase64(cp.rootHash)}\n`;
}

export function parseCheckpointBody(text: string): Checkpoint {
  if (typeof text !== 'string' || !text.endsWith('\n')) {
    throw new InvalidInputError('checkpoint: expected text ending with a newline');
  }
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3)
    throw new InvalidInputError(
      `checkpoint: expected 3 lines (origin, size, root hash), got ${lines.length}`,
    );
  if (lines.length > 3) {
    throw new InvalidInputError(
      `checkpoint: expected 3 lines, got ${lines.length} (extension lines are not accepted)`,
    );
  }
  const [originLine, sizeLine, rootLine] = lines as [string, string, string];
  const origin = assertOrigin(originLine, 'checkpoint origin');
  const size = SIZE_RE.test(sizeLine) ? Number(sizeLine) : Number.NaN;
  if (!Number.isSafeInteger(size)) {
    throw new InvalidInputError(
      `checkpoint size: expected a decimal integer without leading zeros, got ${JSON.stringify(sizeLine.slice(0, 30))}`,
    );
  }
  return { origin, size, rootHash: fromBase64(rootLine, 'checkpoint root hash', MERKLE_HASH_BYTES) };
}

/** The full signed-note text of a checkpoint. */
export function signCheckpoint(cp: Checkpoint, signer: NoteSigner | NoteSigner[]): string {
  return signNote(formatCheckpoint(cp), signer);
}

export interface CheckpointVerifyOptions {
  atMs?: number;
  backend?: Ed25519Backend;
}

/**
 * Verifies a signed checkpoint note. A signature line counts when a trusted key of role `checkpoint`
 * has the line's name as its `name` and the line's key hash; at least one must verify, and any such
 * line that fails verification fails the note. The checkpoint's origin must equal the verifying
 * key's name, so one log's key cannot vouch for another log's checkpoints.
 */
export function verifyCheckpoint(
  note: string,
  trust: TrustStore,
  options: CheckpointVerifyOptions = {},
): Checkpoint & { keyid: string } {
  const { text, signatures } = openNote(note);
  const checkpoint = parseCheckpointBody(text);
  const message = utf8Bytes(text);
  const refusals: string[] = [];
  let verifiedBy: string | undefined;
  signatures.forEach((line, i) => {
    const candidates = trust.keys().filter((k) => k.role === 'checkpoint' && k.name === line.name);
    const key = candidates.find((k) =>
      timingSafeEqual(noteKeyHash(line.name, trust.publicKeyOf(k.kid) as Uint8Array), line.keyHash),
    );
    if (!key) {
      refusals.push(`line ${i + 1}: no trusted checkpoint key named "${line.name}" with that key hash`);
      return;
    }
    const usable = trust.usability(key.kid, CHECKPOINT_ROLE, options.atMs);
    if (!usable.ok) {
      refusals.push(`line ${i + 1}: ${usable.reason}`);
      return;
    }
    if (!ed25519Verify(trust.publicKeyOf(key.kid) as Uint8Array, message, line.signature, options.backend)) {
      throw new SignatureError(`checkpoint signature line ${i + 1} by "${line.name}" does not verify`);
    }
    if (checkpoint.origin !== line.name) {
      throw new SignatureError(
        `checkpoint origin "${checkpoint.origin}" does not match the signing key's name "${line.name}"`,
      );
    }
    verifiedBy ??= key.kid;
  });
  if (verifiedBy === undefined) {
    throw new SignatureError(`checkpoint: no signature by a trusted checkpoint key (${refusals.join('; ')})`);
  }
  return { ...checkpoint, keyid: verifiedBy };
}
