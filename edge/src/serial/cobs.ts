/**
 * Consistent Overhead Byte Stuffing (S. Cheshire, M. Baker, "Consistent Overhead Byte Stuffing",
 * IEEE/ACM Transactions on Networking 7(2), 1999). Removes every zero byte from a frame, so a single 0x00 can
 * delimit frames on a serial line and a receiver resynchronizes at the next zero after line noise. Overhead is
 * at most one byte per 254 bytes plus one.
 *
 * Each block is a code byte n (1..255) followed by n-1 non-zero data bytes; the block stands for those bytes
 * followed by a zero, except for n = 255 (254 data bytes, no zero) and the final block (no zero: the zero
 * that would end the frame is implied by the delimiter).
 */
import { PentagateError } from '@pentagate/protocol';

export class CobsError extends PentagateError {
  constructor(message: string) {
    super('COBS_INVALID', message);
  }
}

/** Encodes `data` (the frame without its 0x00 delimiter). */
export function cobsEncode(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length + Math.ceil(data.length / 254) + 1);
  let codeIndex = 0;
  let code = 1;
  let o = 1;
  for (let i = 0; i < data.length; i++) {
    const byte = data[i]!;
    if (byte === 0) {
      out[codeIndex] = code;
      codeIndex = o++;
      code = 1;
      continue;
    }
    out[o++] = byte;
    code += 1;
    if (code === 0xff) {
      out[codeIndex] = code;
      // A full block carries no implied zero; open the next block only if more data follows.
      if (i + 1 === data.length) return out.subarray(0, o);
      codeIndex = o++;
      code = 1;
    }
  }
  out[codeIndex] = code;
  return out.subarray(0, o);
}

/** Decodes one frame (without its delimiter). Throws CobsError on a zero byte or a block that overruns. */
export function cobsDecode(frame: Uint8Array): Uint8Array {
  if (frame.length === 0)
    throw new CobsError('COBS frame: expected at least one code byte, got an empty frame');
  const out = new Uint8Array(frame.length);
  let o = 0;
  let i = 0;
  while (i < frame.length) {
    const code = frame[i]!;
    if (code === 0) throw new CobsError(`COBS frame: zero byte at offset ${i} (zeros only delimit frames)`);
    const end = i + code;
    if (end > frame.length) {
      throw new CobsError(
        `COBS frame: block at offset ${i} wants ${code - 1} data bytes, only ${frame.length - i - 1} remain`,
      );
    }
    for (let j = i + 1; j < end; j++) {
      const b = frame[j]!;
      if (b === 0) throw new CobsError(`COBS frame: zero byte at offset ${j} (zeros only delimit frames)`);
      out[o++] = b;
    }
    i = end;
    if (code !== 0xff && i < frame.length) out[o++] = 0;
  }
  return out.subarray(0, o);
}
