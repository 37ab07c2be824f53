/**
 * A real serial line for tests: `socat` links two pseudo-terminals (raw, no echo). The edge opens one end,
 * the test plays the microcontroller on the other. Without socat the test fails when CI=true (CI installs it)
 * and is skipped with a message otherwise.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export function socatMissing(): string | undefined {
  const r = spawnSync('socat', ['-V'], { stdio: 'ignore' });
  if (r.error === undefined && r.status === 0) return undefined;
  if (process.env.CI === 'true') throw new Error('socat is required in CI for the serial-line tests');
  return 'socat is not installed; the serial-line tests need it (apt-get install socat)';
}

export class PtyPair {
  readonly edgePath: string;
  readonly controllerPath: string;
  #socat: ChildProcess | undefined;

  constructor(dir: string) {
    this.edgePath = join(dir, 'edge-tty');
    this.controllerPath = join(dir, 'mcu-tty');
  }

  /** Starts socat and waits until both links exist. */
  async start(timeoutMs = 5000): Promise<void> {
    const socat = spawn(
      'socat',
      ['-d', '-d', `pty,raw,echo=0,link=${this.edgePath}`, `pty,raw,echo=0,link=${this.controllerPath}`],
      { stdio: ['ignore', 'ignore', 'ignore'] },
    );
    this.#socat = socat;
    const deadline = Date.now() + timeoutMs;
    while (!(existsSync(this.edgePath) && existsSync(this.controllerPath))) {
      if (socat.exitCode !== null || Date.now() > deadline)
        throw new Error('socat did not create the pseudo-terminals');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Kills socat (both ends hang up, as when a USB adapter is unplugged) and waits for it to exit. */
  async stop(): Promise<void> {
    const socat = this.#socat;
    this.#socat = undefined;
    if (!socat || socat.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      socat.once('exit', () => resolve());
      socat.kill('SIGTERM');
    });
    // socat removes its links on exit; wait so a restart does not race the removal.
    const deadline = Date.now() + 2000;
    while ((existsSync(this.edgePath) || existsSync(this.controllerPath)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
