/**
 * A real serial line for the command wire: `socat` makes a pair of pseudo-terminals, the bridge (the
 * robot's communication board) writes newline-delimited JSON command frames into one end, and the motor
 * controller reads them from the other with serialport's ReadlineParser. An attacker on the line writes
 * into the same end as the bridge.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReadlineParser, SerialPort } from 'serialport';
import { SimulatorError } from '../errors.js';

/** Longest frame the controller reads; longer lines are cut and refused as malformed. */
const MAX_LINE_BYTES = 64 * 1024;

function openPort(path: string): Promise<SerialPort> {
  return new Promise((resolve, reject) => {
    const port = new SerialPort({ path, baudRate: 115_200, autoOpen: false });
    port.open((err) => (err ? reject(err) : resolve(port)));
  });
}

export class SerialLine {
  readonly #socat: ChildProcess;
  readonly #dir: string;
  readonly bridge: SerialPort;
  readonly controller: SerialPort;

  private constructor(socat: ChildProcess, dir: string, bridge: SerialPort, controller: SerialPort) {
    this.#socat = socat;
    this.#dir = dir;
    this.bridge = bridge;
    this.controller = controller;
  }

  static async open(timeoutMs = 5000): Promise<SerialLine> {
    const dir = await mkdtemp(join(tmpdir(), 'pentagate-serial-'));
    const a = join(dir, 'bridge');
    const b = join(dir, 'controller');
    const socat = spawn('socat', ['-d', '-d', `pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let failed: Error | undefined;
    socat.once('error', (err) => {
      failed = err;
    });
    const deadline = Date.now() + timeoutMs;
    while (!(existsSync(a) && existsSync(b))) {
      if (failed || socat.exitCode !== null || Date.now() > deadline) {
        socat.kill();
        await rm(dir, { recursive: true, force: true });
        throw new SimulatorError(
          'SERIAL_UNAVAILABLE',
          `could not make a pseudo-terminal pair with socat (${failed?.message ?? `exit code ${socat.exitCode ?? 'none, timed out'}`}); install socat`,
        );
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const bridge = await openPort(a);
    const controller = await openPort(b);
    return new SerialLine(socat, dir, bridge, controller);
  }

  /** Writes one frame (a line) into the bridge end. */
  send(frame: string): void {
    this.bridge.write(`${frame.replace(/\n/g, ' ')}\n`);
  }

  /** Calls `handler` with each line arriving at the controller end. */
  onControllerFrame(handler: (frame: string) => void): void {
    const parser = this.controller.pipe(new ReadlineParser({ delimiter: '\n' }));
    parser.on('data', (line: string) =>
      handler(line.length > MAX_LINE_BYTES ? line.slice(0, MAX_LINE_BYTES) : line),
    );
  }

  async close(): Promise<void> {
    await Promise.all(
      [this.bridge, this.controller].map(
        (p) => new Promise<void>((resolve) => (p.isOpen ? p.close(() => resolve()) : resolve())),
      ),
    );
    this.#socat.kill();
    await rm(this.#dir, { recursive: true, force: true });
  }
}
