/**
 * The MCAP file layout the readers step through by hand (MCAP spec, https://mcap.dev/spec: magic, then records
 * of an opcode and a uint64 length), and a file handle as the `IReadable` @mcap/core's indexed reader takes.
 * One place for the format sniffing (recording-reader.ts), the integrity walk (mcap-integrity.ts), the order scan
 * (mcap-order-scan.ts) and the truncated-chunk hint (rosbag-reader.ts).
 */
import type { open } from 'node:fs/promises';

/** The magic an MCAP file starts and ends with. */
export const MCAP_MAGIC = Buffer.from([0x89, 0x4d, 0x43, 0x41, 0x50, 0x30, 0x0d, 0x0a]);

/** Opcodes of the records read by hand (MCAP spec, Records). */
export const MCAP_OPCODES = { header: 0x01, footer: 0x02, chunk: 0x06, dataEnd: 0x0f } as const;

/** A record's opcode and content length before its content. */
export const MCAP_RECORD_PREFIX_BYTES = 9;

type FileHandle = Awaited<ReturnType<typeof open>>;

/** `fh` as @mcap/core's IReadable; a short read is an error (the file changed or is truncated). */
export function mcapReadable(fh: FileHandle) {
  return {
    size: async () => BigInt((await fh.stat()).size),
    read: async (offset: bigint, length: bigint) => {
      const buffer = new Uint8Array(Number(length));
      const { bytesRead } = await fh.read(buffer, 0, buffer.byteLength, Number(offset));
      if (bytesRead !== buffer.byteLength) throw new Error(`short read at ${offset}`);
      return buffer;
    },
  };
}
