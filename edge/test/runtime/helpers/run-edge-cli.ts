/** Runs `pentagate …` with the edge commands in-process and captures what it prints. */
import { runCli } from '@pentagate/protocol';
import { commands } from '../../../src/commands.js';

export async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, commands, {
    out: (s) => {
      out.push(s);
    },
    err: (s) => {
      err.push(s);
    },
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
