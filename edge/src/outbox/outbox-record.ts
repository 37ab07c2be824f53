/**
 * One line of the audit outbox: a verdict with its evidence digest, its position, and the SHA-256 of the
 * previous line, so the file is a hash chain — a line edited, dropped or reordered after the fact breaks
 * the chain at that point and the outbox refuses to open (see audit-outbox.ts).
 */
import { sha256Hex } from '@pentagate/crypto';
import {
  canonicalize,
  describeValue,
  InvalidInputError,
  readJson,
  storableJson,
  validate,
  type VerdictEvent,
  VerdictEventSchema,
} from '@pentagate/protocol';

/** prevDigest of the first record: SHA-256 of nothing. */
export const GENESIS_DIGEST = sha256Hex(new Uint8Array(0));

export interface OutboxRecord {
  v: 1;
  /** 0-based position in the outbox. */
  index: number;
  /** When the edge appended the record, Unix ms. */
  appendedAtMs: number;
  /** SHA-256 (hex) of the previous line's bytes without its newline; GENESIS_DIGEST for index 0. */
  prevDigest: string;
  /** The evidence the verdict was decided on, lifted out so a forwarder need not parse the verdict. */
  evidenceDigest?: string;
  verdict: VerdictEvent;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
const RECORD_KEYS = new Set(['v', 'index', 'appendedAtMs', 'prevDigest', 'evidenceDigest', 'verdict']);

/** Longest line the outbox writes or reads back; a verdict is a few KiB at most. */
export const MAX_RECORD_BYTES = 256 * 1024;

/**
 * The record of `verdict`, its text made storable (storableJson): a verdict may quote what came from outside
 * (a malformed MQTT payload's U+0000, a violation cut inside a surrogate pair), and one the cloud cannot store
 * would be refused with its whole batch, again on every retry, so nothing after it would ever ship.
 */
export function makeRecord(
  index: number,
  appendedAtMs: number,
  prevDigest: string,
  verdict: VerdictEvent,
): OutboxRecord {
  verdict = storableJson(verdict);
  return {
    v: 1,
    index,
    appendedAtMs,
    prevDigest,
    ...(verdict.evidenceDigest !== undefined ? { evidenceDigest: verdict.evidenceDigest } : {}),
    verdict,
  };
}

/** The line bytes (RFC 8785 JCS, so the digest chain does not depend on key order) without newline. */
export function encodeRecord(record: OutboxRecord): string {
  return canonicalize(record);
}

/** The first field of a parsed line that is not what the outbox writes, or undefined. */
function recordProblem(r: Record<string, unknown>): string | undefined {
  const digest = (v: unknown) => typeof v === 'string' && SHA256_HEX.test(v);
  const count = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
  if (r.v !== 1) return `v: expected 1, got ${describeValue(r.v)}`;
  if (!count(r.index)) return `index: expected an integer >= 0, got ${describeValue(r.index)}`;
  if (!count(r.appendedAtMs)) return `appendedAtMs: expected Unix ms, got ${describeValue(r.appendedAtMs)}`;
  if (!digest(r.prevDigest))
    return `prevDigest: expected 64 hex characters, got ${describeValue(r.prevDigest)}`;
  if (r.evidenceDigest !== undefined && !digest(r.evidenceDigest)) {
    return `evidenceDigest: expected 64 hex characters, got ${describeValue(r.evidenceDigest)}`;
  }
  const unknownKey = Object.keys(r).find((k) => !RECORD_KEYS.has(k));
  return unknownKey === undefined ? undefined : `expected no other fields, got ${JSON.stringify(unknownKey)}`;
}

/** Parses and validates one line; throws InvalidInputError / ValidationError naming the line. */
export function decodeRecord(line: string, lineNumber: number): OutboxRecord {
  const what = `audit outbox line ${lineNumber}`;
  const value = readJson(line, { what, maxBytes: MAX_RECORD_BYTES });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidInputError(`${what}: expected an object, got ${describeValue(value)}`);
  }
  const r = value as Record<string, unknown>;
  const problem = recordProblem(r);
  if (problem !== undefined) throw new InvalidInputError(`${what}: ${problem}`);
  validate(VerdictEventSchema, r.verdict, `${what} verdict`);
  return value as OutboxRecord;
}

export function lineDigest(line: string): string {
  return sha256Hex(line);
}
