/**
 * C2SP signed notes (c2sp.org/signed-note) with Ed25519 signatures (signature type 0x01):
 *
 *   <text ending in "\n">
 *   "\n"
 *   "— <key name> <base64(key hash (4 bytes) || signature (64 bytes))>\n"   (one line per signature)
 *
 * The signature is over the text bytes including its final newline. Key hash = first 4 bytes of
 * SHA-256(name || "\n" || 0x01 || public key). Verifier keys are written "name+hex(key hash)+base64(0x01 || public key)".
 */
import { InvalidInputError, fromBase64, toBase64, toHex, utf8Bytes } from '@pentagate/protocol';
import { createEd25519Signer } from './ed25519.js';
import { assertBytes } from './errors.js';
import { sha256 } from './hash.js';

/** The signature type byte of Ed25519 in signed notes. */
export const NOTE_ED25519_TYPE = 0x01;
/** Implementations may refuse notes with too many signatures (the spec suggests 100). */
export const MAX_NOTE_SIGNATURES = 100;
export const MAX_NOTE_BYTES = 1024 * 1024;
const EM_DASH = '\u2014';

export interface NoteSigner {
  name: string;
  /** First 4 bytes of SHA-256(name || "\n" || 0x01 || public key). */
  keyHash: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}

export interface NoteSignature {
  name: string;
  keyHash: Uint8Array;
  /** The 64-byte Ed25519 signature (for type 0x01 keys; other types are opaque bytes). */
  signature: Uint8Array;
}

export interface OpenedNote {
  /** The signed text, ending in "\n". */
  text: string;
  signatures: NoteSignature[];
}

/** Key names are non-empty and contain no Unicode whitespace and no "+" (signed-note, "Verifier keys"). */
export function assertNoteKeyName(name: unknown, what = 'note key name'): string {
  if (typeof name !== 'string' || name.length === 0 || /[\s+]/u.test(name) || /\p{Cc}/u.test(name)) {
    throw new InvalidInputError(
      `${what}: expected a non-empty name without spaces or "+", got ${JSON.stringify(name)}`,
    );
  }
  return name;
}

export function noteKeyHash(name: string, publicKey: Uint8Array): Uint8Array {
  assertNoteKeyName(name);
  assertBytes(publicKey, 'Ed25519 public key', 32);
  const prefix = utf8Bytes(`${name}\n`);
  const input = new Uint8Array(prefix.length + 1 + 32);
  input.set(prefix);
  input[prefix.length] = NOTE_ED25519_TYPE;
  input.set(publicKey, prefix.length + 1);
  return sha256(input).subarray(0, 4);
}

/** The verifier key string "name+hex8+base64(0x01 || pub)" that note tools (Go sumdb/note, witnesses) read. */
export function noteVerifierKey(name: string, publicKey: Uint8Array): string {
  const typed = new Uint8Array(33);
  typed[0] = NOTE_ED25519_TYPE;
  typed.set(assertBytes(publicKey, 'Ed25519 public key', 32), 1);
  return `${name}+${toHex(noteKeyHash(name, publicKey))}+${toBase64(typed)}`;
}

/** Parses a verifier key string strictly; the key hash must match the name and key. */
export function parseNoteVerifierKey(vkey: string): {
  name: string;
  keyHash: Uint8Array;
  publicKey: Uint8Array;
} {
  const parts = typeof vkey === 'string' ? vkey.split('+') : [];
  // The base64 part may itself contain "+", so split name and hash off the front only.
  if (parts.length < 3)
    throw new InvalidInputError('note verifier key: expected name+hex8+base64, got fewer than 3 parts');
  const [name, hashHex] = parts as [string, string];
  const typed = fromBase64(parts.slice(2).join('+'), 'note verifier key', 33);
  if (typed[0] !== NOTE_ED25519_TYPE) {
    throw new InvalidInputError(
      `note verifier key: expected signature type 0x01 (Ed25519), got 0x${toHex(typed.subarray(0, 1))}`,
    );
  }
  const publicKey = typed.slice(1);
  const keyHash = noteKeyHash(assertNoteKeyName(name), publicKey);
  if (hashHex !== toHex(keyHash)) {
    throw new InvalidInputError(
      `note verifier key: expected key hash ${toHex(keyHash)}, got ${JSON.stringify(hashHex)}`,
    );
  }
  return { name, keyHash, publicKey };
}

/** A note signer for `name` with an Ed25519 seed (node:crypto backend). */
export function createNoteSigner(name: string, seed: Uint8Array): NoteSigner {
  assertNoteKeyName(name);
  const signer = createEd25519Signer(seed);
  return { name, keyHash: noteKeyHash(name, signer.publicKey), sign: (m) => signer.sign(m) };
}

/** True when `text` holds an ASCII control character (below U+0020), newline excepted if allowed. */
export function hasControlCharacter(text: string, allowNewline: boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && !(allowNewline && c === 0x0a)) return true;
  }
  return false;
}

// Signed notes MUST be valid UTF-8 and MUST NOT contain ASCII control characters other than newline.
function assertNoteCharacters(text: string, what: string): void {
  if (hasControlCharacter(text, true)) {
    throw new InvalidInputError(`${what}: expected no control characters other than newline`);
  }
  if (/\p{Cs}/u.test(text))
    throw new InvalidInputError(`${what}: expected valid UTF-8 text (lone surrogate)`);
}

/** The note text followed by a blank line and one signature line per signer. */
export function signNote(text: string, signers: NoteSigner | NoteSigner[]): string {
  assertNoteCharacters(text, 'note text');
  if (!text.endsWith('\n')) throw new InvalidInputError('note text: expected it to end with a newline');
  const list = Array.isArray(signers) ? signers : [signers];
  if (list.length === 0) throw new InvalidInputError('signNote: expected at least one signer, got none');
  const message = utf8Bytes(text);
  const lines = list.map((s) => {
    const sig = s.sign(message);
    const blob = new Uint8Array(4 + sig.length);
    blob.set(s.keyHash);
    blob.set(sig, 4);
    return `${EM_DASH} ${s.name} ${toBase64(blob)}\n`;
  });
  return `${text}\n${lines.join('')}`;
}

/** Splits a signed note into its text and signature lines; strict about every byte of the format. */
export function openNote(note: unknown): OpenedNote {
  if (typeof note !== 'string') throw new InvalidInputError(`signed note: expected text, got ${typeof note}`);
  if (note.length > MAX_NOTE_BYTES) {
    throw new InvalidInputError(
      `signed note: expected at most ${MAX_NOTE_BYTES} characters, got ${note.length}`,
    );
  }
  assertNoteCharacters(note, 'signed note');
  const split = note.lastIndexOf('\n\n');
  if (split < 0)
    throw new InvalidInputError('signed note: expected a blank line before the signatures, got none');
  const text = note.slice(0, split + 1);
  const block = note.slice(split + 2);
  if (!block.endsWith('\n'))
    throw new InvalidInputError('signed note: expected the last signature line to end with a newline');
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_NOTE_SIGNATURES) {
    throw new InvalidInputError(
      `signed note: expected at most ${MAX_NOTE_SIGNATURES} signatures, got ${lines.length}`,
    );
  }
  const signatures = lines.map((line, i) => {
    const what = `signed note signature line ${i + 1}`;
    const m = /^\u2014 (\S+) (\S+)$/u.exec(line);
    if (!m)
      throw new InvalidInputError(
        `${what}: expected "— <name> <base64>", got ${JSON.stringify(line.slice(0, 60))}`,
      );
    const name = assertNoteKeyName(m[1], `${what} name`);
    const blob = fromBase64(m[2], `${what} signature`);
    if (blob.length < 5)
      throw new InvalidInputError(
        `${what} signature: expected a key hash and a signature, got ${blob.length} bytes`,
      );
    return { name, keyHash: blob.slice(0, 4), signature: blob.slice(4) };
  });
  return { text, signatures };
}
