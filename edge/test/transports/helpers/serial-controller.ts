/** The microcontroller's end of a serial line in tests: frames in (collected, awaited by shape), frames out. */
import { SerialPort } from 'serialport';
import { FrameSplitter, type SerialFraming, encodeFrame } from '../../../src/serial/serial-framing.js';

/** The microcontroller's end of the line: frames in, frames out. */
export class Controller {
  readonly received: unknown[] = [];
  readonly #waiters: { match: (v: unknown) => boolean; resolve: (v: unknown) => void }[] = [];
  constructor(
    readonly port: SerialPort,
    readonly framing: SerialFraming,
  ) {
    const splitter = new FrameSplitter(framing, 64 * 1024);
    port.on('data', (bytes: Buffer) => {
      for (const f of splitter.push(bytes)) {
        if (!f.ok) continue;
        const v = JSON.parse(new TextDecoder().decode(f.payload));
        this.received.push(v);
        const w = this.#waiters.findIndex((x) => x.match(v));
        if (w >= 0) this.#waiters.splice(w, 1)[0]!.resolve(v);
      }
    });
  }
  static async open(path: string, framing: SerialFraming): Promise<Controller> {
    const port = new SerialPort({ path, baudRate: 115_200, autoOpen: false });
    await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(err) : resolve())));
    return new Controller(port, framing);
  }
  send(value: unknown): void {
    this.port.write(
      Buffer.from(encodeFrame(this.framing, typeof value === 'string' ? value : JSON.stringify(value))),
    );
  }
  sendRaw(bytes: Uint8Array): void {
    this.port.write(Buffer.from(bytes));
  }
  next<T>(match: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
    const seen = this.received.find((v) => match(v as T));
    if (seen) {
      this.received.splice(this.received.indexOf(seen), 1);
      return Promise.resolve(seen as T);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no matching frame from the edge')), timeoutMs);
      this.#waiters.push({
        match: (v) => match(v as T),
        resolve: (v) => {
          clearTimeout(timer);
          this.received.splice(this.received.indexOf(v), 1);
          resolve(v as T);
        },
      });
    });
  }
  close(): Promise<void> {
    return new Promise((resolve) => (this.port.isOpen ? this.port.close(() => resolve()) : resolve()));
  }
}
