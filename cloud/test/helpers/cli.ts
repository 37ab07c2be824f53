/** Runs `pentagate <argv>` with this package's commands and captures stdout and stderr. */
import { runCli } from '@pentagate/protocol';
import { commands } from '../../src/commands.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export async function cli(...argv: string[]): Promise<CliRun> {
  let out = '';
  let err = '';
  const code = await runCli(argv, commands, {
    out: (text) => {
      out += text.endsWith('\n') ? text : `${text}\n`;
    },
    err: (text) => {
      err += text.endsWith('\n') ? text : `${text}\n`;
    },
  });
  return { code, out, err };
}
