/**
 * Frames on a serial line: newline-delimited JSON (readable on a terminal, enough when the payload is JSON, which
 * never holds a raw newline) or COBS frames delimited by 0x00 (binary-safe; resynchronizes after noise).
 * The splitter bounds a frame's length: bytes past `maxFrameBytes` without a delimiter are dropped up to the next
 * delimiter and reported as one oversize frame, so a babbling line cannot exhaust memory.
 */
import { cobsDecode, cobsEncode } from './cobs.js';

export type SerialFraming = 'ndjson' | 'cobs';

const DELIMITER: Record<SerialFraming, number> = { ndjson: 0x0a, cobs: 0x00 };

/** One frame on the wire, delimiter included. */
export function encodeFrame(framing: SerialFraming, json: string): Uint8Array {
  const body = new TextEncoder().encode(json);
  if (framing === 'ndjson') {
    const out = new Uint8Array(body.length + 1);
    out.set(body);
    out[body.length] = 0x0a;
    return out;
  }
  const encoded = cobsEncode(body);
  const out = new Uint8Array(encoded.length + 1);
  out.set(encoded);
  return out;
}

export type SplitFrame = { ok: true; payload: Uint8Array } | { ok: false; problem: string };

export class FrameSplitter {
  readonly #framing: SerialFraming;
  readonly #delimiter: number;
  readonly #maxFrameBytes: number;
  #parts: Uint8Array[] = [];
  #length = 0;
  #overflowed = false;

  constructor(framing: SerialFraming, maxFrameBytes: number) {
    this.#framing = framing;
    this.#delimiter = DELIMITER[framing];
    this.#maxFrameBytes = maxFrameBytes;
  }

  /** Feeds received bytes; returns the frames they completed (payloads decoded, empty frames skipped). */
  push(bytes: Uint8Array): SplitFrame[] {
    const frames: SplitFrame[] = [];
    let start = 0;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] !== this.#delimiter) continue;
      this.#append(bytes.subarray(start, i));
      start = i + 1;
      const frame = this.#take();
      if (frame) frames.push(frame);
    }
    this.#append(bytes.subarray(start));
    return frames;
  }

  #append(part: Uint8Array): void {
    if (part.length === 0 || this.#overflowed) return;
    if (this.#length + part.length > this.#maxFrameBytes) {
      this.#overflowed = true;
      this.#parts = [];
      this.#length = 0;
      return;
    }
    this.#parts.push(Uint8Array.from(part));
    this.#length += part.length;
  }

  #take(): SplitFrame | undefined {
    const overflowed = this.#overflowed;
    const raw = new Uint8Array(this.#length);
    let o = 0;
    for (const p of this.#parts) {
      raw.set(p, o);
      o += p.length;
    }
    this.#parts = [];
    this.#length = 0;
    this.#overflowed = false;
    if (overflowed) return { ok: false, problem: `frame longer than ${this.#maxFrameBytes} bytes dropped` };
    let payload = raw;
    if (this.#framing === 'ndjson' && payload.at(-1) === 0x0d) payload = payload.subarray(0, -1); // CRLF
    if (payload.length === 0) return undefined;
    if (this.#framing === 'ndjson') return { ok: true, payload };
    try {
      return { ok: true, payload: cobsDecode(payload) };
    } catch (err) {
      return { ok: false, problem: (err as Error).message };
    }
  }
}
