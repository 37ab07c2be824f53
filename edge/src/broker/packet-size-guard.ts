/**
 * Refuses MQTT packets larger than a limit before their bytes are buffered. aedes hands every byte it reads
 * to mqtt-packet, which keeps appending to one buffer list until the declared Remaining Length has arrived:
 * a CONNECT declaring 200 MB grows the broker by 200 MB, before authentication. MQTT 3.1.1 has no way to
 * announce a limit (MQTT 5's Maximum Packet Size, §3.1.2.11.4, is not in 3.1.1), so the server closes the
 * connection, which [MQTT-4.8.0-1] allows for a protocol violation.
 *
 * The scanner below follows packet boundaries in the raw stream (fixed header §2.2: one type byte, then
 * the Remaining Length as 1-4 base-128 digits, §2.2.3) and reports the first packet whose declared length
 * exceeds the limit, as soon as its length field is read.
 */
import type { Socket } from 'node:net';

const HEADER = 0;
const LENGTH = 1;
const BODY = 2;
/** §2.2.3: at most four Remaining Length bytes. */
const MAX_LENGTH_BYTES = 4;

export class MqttFrameScanner {
  readonly #maxRemainingBytes: number;
  #state = HEADER;
  #length = 0;
  #multiplier = 1;
  #lengthBytes = 0;
  #remaining = 0;

  constructor(maxRemainingBytes: number) {
    this.#maxRemainingBytes = maxRemainingBytes;
  }

  /**
   * Feeds the next bytes of the stream. Returns undefined while every packet fits, else the declared
   * Remaining Length that does not (Infinity for a length field longer than four bytes).
   */
  feed(chunk: Uint8Array): number | undefined {
    let i = 0;
    while (i < chunk.length) {
      if (this.#state === HEADER) {
        i += 1;
        this.#state = LENGTH;
        this.#length = 0;
        this.#multiplier = 1;
        this.#lengthBytes = 0;
      } else if (this.#state === LENGTH) {
        const byte = chunk[i++] as number;
        this.#length += (byte & 0x7f) * this.#multiplier;
        this.#multiplier *= 128;
        this.#lengthBytes += 1;
        if (this.#length > this.#maxRemainingBytes) return this.#length;
        if (byte & 0x80) {
          if (this.#lengthBytes === MAX_LENGTH_BYTES) return Number.POSITIVE_INFINITY;
          continue;
        }
        this.#remaining = this.#length;
        this.#state = this.#remaining === 0 ? HEADER : BODY;
      } else {
        const take = Math.min(this.#remaining, chunk.length - i);
        i += take;
        this.#remaining -= take;
        if (this.#remaining === 0) this.#state = HEADER;
      }
    }
    return undefined;
  }
}

/**
 * Puts a scanner in front of whoever reads `socket` in paused mode (aedes calls `socket.read()` on
 * 'readable'): an oversized packet destroys the socket and the read returns nothing, so the bytes never
 * reach the MQTT parser. Node's own socket buffer stays bounded by its high-water mark meanwhile.
 */
export function guardPacketSize(
  socket: Socket,
  maxPacketBytes: number,
  onOversize: (declaredBytes: number) => void,
): void {
  const scanner = new MqttFrameScanner(maxPacketBytes);
  const read = socket.read.bind(socket);
  socket.read = (size?: number) => {
    const chunk: unknown = read(size);
    if (chunk === null || socket.destroyed) return socket.destroyed ? null : chunk;
    const over = scanner.feed(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array));
    if (over === undefined) return chunk;
    socket.destroy();
    onOversize(over);
    return null;
  };
}
