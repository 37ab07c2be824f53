/**
 * The simulator's CLI as the tests drive it: in process through the real CLI kit (`cli`), and as a child
 * process that a terminal's Ctrl-C interrupts (`demoInterrupted`).
 */
import { spawn } from 'node:child_process';
import { runCli } from '@pentagate/protocol';
import { commands } from '../../src/commands.js';
import { PENTAGATE_BIN } from '../../src/edge/edge-process.js';

/** Runs `pentagate …` in this process through the CLI kit, with its output collected. */
export async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, commands, { out: (s) => (out += `${s}\n`), err: (s) => (err += `${s}\n`) });
  return { code, out, err };
}

/**
 * Starts the demo as a terminal would, the leader of its own process group, and sends SIGINT to the whole
 * group (what Ctrl-C does) once `when` matches its output.
 */
export async function demoInterrupted(
  port: number,
  when: RegExp,
  { readerGoes = false, extraArgs = [] }: { readerGoes?: boolean; extraArgs?: string[] } = {},
): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }> {
  // --duration only as a cap: on a loaded machine the edge's start alone can take many seconds.
  const child = spawn(
    process.execPath,
    [PENTAGATE_BIN, 'demo', '--mqtt-port', String(port), '--duration', '90', ...extraArgs],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let signalled = false;
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    if (!signalled && when.test(out) && child.pid !== undefined) {
      signalled = true;
      // `demo | tee log` and Ctrl-C: the same SIGINT ends the reader, so nothing reads what follows.
      if (readerGoes) {
        child.stdout.destroy();
        child.stderr.destroy();
      }
      process.kill(-child.pid, 'SIGINT');
    }
  });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) =>
    child.on('exit', (c, s) => r([c, s])),
  );
  return { code, signal, out, err };
}
