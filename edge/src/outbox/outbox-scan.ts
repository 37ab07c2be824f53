/**
 * Reading an outbox file back on open: every line is decoded and the hash chain checked, so a file that
 * was edited is refused rather than forwarded. Only the LAST line may be unreadable — that is
 * what power loss during an append leaves (a write cut short, or a block of zeros where the file grew but
 * the data never reached the disk) — and it is reported as a torn tail for the caller to cut off.
 *
 * A torn tail is never a verdict anyone relied on: an append resolves only after its bytes and newline are
 * fsynced, and the edge publishes a signed motion command only after its append resolved.
 */
import { EdgeRuntimeError } from '../node/runtime-error.js';
import { decodeRecord, GENESIS_DIGEST, lineDigest } from './outbox-record.js';

export interface OutboxScan {
  /**
   * Index of the first record in the file: 0, or after compaction (audit-outbox.ts `compact`) the last record
   * the cloud acknowledged, kept as the anchor the rest chains from.
   */
  firstIndex: number;
  /** Byte offset where each intact line starts (record firstIndex + i at offsets[i]). */
  offsets: number[];
  /** Bytes of intact lines; the file is cut here when a torn tail exists. */
  validBytes: number;
  /** Bytes after the last intact line (0 when the file is clean). */
  tornBytes: number;
  /** SHA-256 of the last intact line, or GENESIS_DIGEST for an empty outbox. */
  headDigest: string;
  /** Why the tail was judged torn, for the log. */
  tornReason?: string;
}

const NEWLINE = 0x0a;

export function scanOutbox(bytes: Buffer, path: string): OutboxScan {
  const offsets: number[] = [];
  let headDigest = GENESIS_DIGEST;
  let firstIndex = 0;
  let start = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(NEWLINE, start);
    const isLast = end === -1 || end === bytes.length - 1;
    const lineNumber = offsets.length + 1;
    let problem: string | undefined;
    // Power loss can cut a write short or leave zeros, but it cannot write a well-formed record with a
    // wrong index or chain digest: those mean the file was edited, and are never repaired.
    let tearable = true;
    if (end === -1) {
      problem = 'no newline at the end (an append cut short)';
    } else {
      const line = bytes.subarray(start, end).toString('utf8');
      try {
        const record = decodeRecord(line, lineNumber);
        tearable = false;
        if (offsets.length === 0 && record.index > 0) {
          // A compacted file starts at its anchor: the chain is checked from there on, and `open` checks
          // that everything before it was acknowledged by the cloud (nothing unshipped was cut).
          firstIndex = record.index;
          headDigest = record.prevDigest;
        }
        if (record.index !== firstIndex + offsets.length) {
          problem = `index ${record.index} where ${firstIndex + offsets.length} was expected`;
        } else if (record.prevDigest !== headDigest) {
          problem = 'prevDigest does not match the previous line (hash chain broken)';
        } else {
          offsets.push(start);
          headDigest = lineDigest(line);
          start = end + 1;
          continue;
        }
      } catch (err) {
        problem = (err as Error).message;
      }
    }
    if (!isLast || !tearable) {
      throw new EdgeRuntimeError(
        'OUTBOX_CORRUPT',
        `audit outbox ${path}: line ${lineNumber} is damaged (${problem}); this is not what power loss ` +
          'leaves, so the file is left untouched: move it aside and investigate',
      );
    }
    return {
      firstIndex,
      offsets,
      validBytes: start,
      tornBytes: bytes.length - start,
      headDigest,
      tornReason: problem,
    };
  }
  return { firstIndex, offsets, validBytes: start, tornBytes: 0, headDigest };
}
