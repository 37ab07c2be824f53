/**
 * `cloud serve --metrics-token-file FILE`: the bearer token `/metrics` then requires (app/metrics-token.ts).
 * Read from a file, not given on the command line, where every user of the machine could read it in the
 * process list. One line of at least 16 visible ASCII characters (a header value, with no spaces); a final
 * newline is dropped.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '@pentagate/protocol';

const TOKEN = /^[\x21-\x7e]{16,4096}$/;

export function metricsTokenOf(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`--metrics-token-file: cannot read ${path}: ${(err as Error).message}`);
  }
  const token = text.replace(/\r?\n$/, '');
  if (!TOKEN.test(token)) {
    throw new UsageError(
      `--metrics-token-file: expected one line of 16 to 4096 visible ASCII characters (no spaces) in ${path}`,
    );
  }
  return token;
}
