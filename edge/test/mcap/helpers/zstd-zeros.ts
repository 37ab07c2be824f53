/**
 * Zstandard frames of zero bytes built by hand (RFC 8878 §3.1.1), for decompression-bomb tests: a few kilobytes
 * of RLE blocks (block header: last flag, type 1, size; then the byte repeated) that honestly decompress to
 * hundreds of megabytes, with or without a declared content size.
 */

/** zstd Block_Maximum_Size (RFC 8878 §3.1.1.2.4): 128 KiB. */
export const ZSTD_BLOCK_BYTES = 128 * 1024;

/**
 * A frame of `size` zero bytes. `declareSize`: single segment with an 8-byte content size; otherwise no content
 * size and a window descriptor of 128 KiB (exponent 7), as a streaming compressor writes.
 */
export function zstdZeros(size: number, declareSize = true): Buffer {
  const head = declareSize ? Buffer.alloc(4 + 1 + 8) : Buffer.alloc(4 + 1 + 1);
  head.writeUInt32LE(0xfd2fb528, 0);
  if (declareSize) {
    head[4] = 0b1110_0000; // content size in 8 bytes, single segment
    head.writeBigUInt64LE(BigInt(size), 5);
  } else {
    head[4] = 0;
    head[5] = 7 << 3;
  }
  const blocks: Buffer[] = [];
  for (let left = size; left > 0; left -= ZSTD_BLOCK_BYTES) {
    const n = Math.min(ZSTD_BLOCK_BYTES, left);
    const b = Buffer.alloc(4);
    b.writeUIntLE(((left <= ZSTD_BLOCK_BYTES ? 1 : 0) | (1 << 1) | (n << 3)) >>> 0, 0, 3);
    blocks.push(b);
  }
  return Buffer.concat([head, ...blocks]);
}
