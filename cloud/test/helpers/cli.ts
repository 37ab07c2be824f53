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

export interface ServingCli {
  /** the URL `serve --json` printed */
  base: string;
  /** resolves with the exit code once serve has stopped */
  exit: Promise<number>;
  /** what serve wrote to stderr so far */
  err: () => string;
}

/**
 * Runs `pentagate cloud serve --port 0 --json <args>` in this process and waits for its URL; a serve that
 * exits first rejects with its stderr. Stop it with `serveShutdown.emit('shutdown', 'SIGTERM')` (a test cannot
 * send itself SIGTERM: the runner would take it as its own end).
 */
export async function serveInProcess(...args: string[]): Promise<ServingCli> {
  let resolveUrl: (url: string) => void = () => {};
  const url = new Promise<string>((r) => {
    resolveUrl = r;
  });
  let err = '';
  const exit = runCli(['cloud', 'serve', '--port', '0', '--json', ...args], commands, {
    out: (text) => resolveUrl(JSON.parse(text).url),
    err: (text) => {
      err += text;
    },
  });
  const base = await Promise.race([
    url,
    exit.then((code) => Promise.reject(new Error(`serve exited ${code}: ${err}`))),
  ]);
  return { base, exit, err: () => err };
}
