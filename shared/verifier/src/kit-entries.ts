/**
 * A kit's `entries.jsonl`, read as a stream: each line is checked and handed on as it is read, and only its
 * leaf hash is kept (32 bytes an entry, for the RFC 6962 root), so a log of any size is verified in bounded
 * memory. Held whole, a shared log past 128 MiB could not be verified at all, and an agent flooding vetoes got
 * a fleet's log there in under a minute (outside review).
 */
import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { leafHash } from '@pentagate/crypto';
import { type AuditEntry, AuditEntrySchema, canonicalize, readJson, schemaIssues } from '@pentagate/protocol';
import { MAX_INPUT_BYTES, decodeUtf8 } from './input-files.js';

/** SHA-256 of a file read as a stream, hex (entries.jsonl's digest, checked before its lines are read). */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
  }
  return hash.digest('hex');
}

export interface KitEntries {
  /** SHA-256 of the bytes read, hex: the manifest's digest of the file read here. */
  sha256: string;
  leafHashes: Uint8Array[];
  /** The first problems found (at most MAX_SHOWN_PROBLEMS), and how many there were. */
  problems: string[];
  problemCount: number;
  /** Lines past `maxLines` were not read (a file longer than its checkpoint). */
  truncated: boolean;
}

const MAX_SHOWN_PROBLEMS = 5;

/**
 * Reads `path` line by line; `onEntry` gets each line that is a canonical AuditEntry with its line number as
 * index. At most `maxLines` lines are read (one past the checkpoint's size tells the count is wrong).
 */
export async function readKitEntries(
  path: string,
  maxLines: number,
  onEntry: (entry: AuditEntry) => void,
): Promise<KitEntries> {
  const hash = createHash('sha256');
  const out: KitEntries = { sha256: '', leafHashes: [], problems: [], problemCount: 0, truncated: false };
  const problem = (text: string) => {
    out.problemCount++;
    if (out.problems.length < MAX_SHOWN_PROBLEMS) out.problems.push(text);
  };
  const line = (bytes: Uint8Array) => {
    const i = out.leafHashes.length;
    const where = `line ${i + 1}`;
    out.leafHashes.push(leafHash(bytes));
    let text: string;
    let value: unknown;
    try {
      text = decodeUtf8(bytes, `entries.jsonl ${where}`);
      value = readJson(text, { what: where, maxBytes: MAX_INPUT_BYTES });
    } catch (err) {
      problem((err as Error).message);
      return;
    }
    const issues = schemaIssues(AuditEntrySchema, value);
    if (issues.length > 0) {
      problem(`${where}: not an audit entry (${issues[0]?.path || '/'}: ${issues[0]?.message})`);
      return;
    }
    const entry = value as AuditEntry;
    if (canonicalize(entry) !== text) problem(`${where}: expected canonical JCS, got other formatting`);
    if (entry.index !== i) problem(`${where}: expected index ${i}, got ${entry.index}`);
    onEntry(entry);
  };
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    if (out.truncated) continue;
    let data = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    let start = 0;
    for (let nl = data.indexOf(0x0a, start); nl >= 0; nl = data.indexOf(0x0a, start)) {
      if (out.leafHashes.length >= maxLines) {
        out.truncated = true;
        break;
      }
      line(data.subarray(start, nl));
      start = nl + 1;
    }
    data = out.truncated ? Buffer.alloc(0) : data.subarray(start);
    if (data.length > MAX_INPUT_BYTES) {
      problem(`line ${out.leafHashes.length + 1}: longer than ${MAX_INPUT_BYTES} bytes; not read further`);
      out.truncated = true;
      data = Buffer.alloc(0);
    }
    carry = Buffer.from(data);
  }
  if (carry.length > 0 && !out.truncated) {
    problem('expected every line to end with \\n, got a last line without one');
    if (out.leafHashes.length < maxLines) line(carry);
    else out.truncated = true;
  }
  out.sha256 = hash.digest('hex');
  return out;
}
