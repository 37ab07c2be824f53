/**
 * What a Zstandard frame header says before anything is decompressed (RFC 8878 §3.1.1): whether bytes start a
 * frame (magic 28 B5 2F FD) and the content size the frame declares, so a frame that would decompress to more than
 * its container allows is refused before an output buffer is allocated.
 */

import { Decompress as ZstdStream } from 'fzstd';

const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd] as const;

export function isZstdFrame(data: Uint8Array): boolean {
  return data.byteLength >= 4 && ZSTD_MAGIC.every((b, i) => data[i] === b);
}

/** The frame content size a zstd frame header declares (RFC 8878 §3.1.1.1), or undefined when it has none. */
export function zstdContentSize(data: Uint8Array): number | undefined {
  if (data.byteLength < 5) return undefined;
  const fhd = data[4]!;
  const fcsFlag = fhd >> 6;
  const singleSegment = (fhd >> 5) & 1;
  const dictIdFlag = fhd & 3;
  const fcsBytes = [singleSegment ? 1 : 0, 2, 4, 8][fcsFlag]!;
  if (fcsBytes === 0) return undefined;
  const at = 5 + (singleSegment ? 0 : 1) + [0, 1, 2, 4][dictIdFlag]!;
  if (data.byteLength < at + fcsBytes) return undefined;
  let size = 0;
  for (let i = fcsBytes - 1; i >= 0; i--) size = size * 256 + data[at + i]!;
  return fcsBytes === 2 ? size + 256 : size;
}

/** A zstd frame held more than a decompression was allowed to produce. */
export class ZstdTooLarge extends Error {}

/**
 * Decompresses a zstd frame block by block, allocating what it holds as it comes, and throws ZstdTooLarge as soon
 * as that is more than `maxBytes`: a frame that declares no content size (a streaming compressor writes none)
 * cannot be refused from its header, and decompressed whole it could take gigabytes from a few kilobytes.
 */
export function zstdDecompressAtMost(frame: Uint8Array, maxBytes: number): Uint8Array {
  const blocks: Uint8Array[] = [];
  let length = 0;
  const stream = new ZstdStream((data) => {
    length += data.byteLength;
    if (length > maxBytes) throw new ZstdTooLarge(`more than ${maxBytes} bytes`);
    blocks.push(data.slice());
  });
  stream.push(frame, true);
  const out = new Uint8Array(length);
  let at = 0;
  for (const block of blocks) {
    out.set(block, at);
    at += block.byteLength;
  }
  return out;
}
