/**
 * What the user did wrong, as one line, for the errors that reach the CLI raw from Node or a parser.
 * A missing file, a taken port or a malformed document is the user's to fix (exit 2, one line, no stack);
 * everything else is a fault in Pentagate and keeps its stack.
 */

/** System error codes (errno) caused by the paths and ports a user passes, with what each means. */
const userErrnoMeanings: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory, expected a file',
  ENOTDIR: 'a part of the path is not a directory',
  EEXIST: 'already exists',
  ENOTEMPTY: 'directory is not empty',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  ENAMETOOLONG: 'file name too long',
  ELOOP: 'too many symbolic links',
  EADDRINUSE: 'is already in use',
  EADDRNOTAVAIL: 'is not an address of this machine',
  ENOTFOUND: 'host name not found',
  ECONNREFUSED: 'refused the connection (is the server running on that port?)',
};

/**
 * "cannot read PATH: no such file or directory (ENOENT)": why a file the user named could not be read, in
 * words, the same from every command (a read error's own message is "ENOENT: no such file or directory,
 * open 'PATH'", and one of a directory carries no path at all).
 */
export function cannotRead(path: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const meaning = typeof code === 'string' ? userErrnoMeanings[code] : undefined;
  const why =
    meaning !== undefined
      ? `${meaning} (${code})`
      : oneLine(err instanceof Error ? err.message : String(err));
  return `cannot read ${path}: ${why}`;
}

/** The names parsers give their syntax errors: JSON.parse throws SyntaxError; `yaml` throws YAMLParseError. */
const syntaxErrorNames = new Set(['SyntaxError', 'YAMLParseError', 'YAMLException']);

/** Collapses a multi-line message (parser code frames, file contents quoted in a message) to one line. */
export function oneLine(text: string): string {
  return text
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && !/^\^+$/.test(s))
    .join(' ');
}

/**
 * One line describing a user error, or undefined when `err` is not one (a fault in Pentagate).
 * `portOptions` are the command's options that choose a port, named in the advice for a taken one.
 */
export function describeUserError(err: unknown, portOptions: readonly string[] = []): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const e = err as NodeJS.ErrnoException & {
    address?: string;
    port?: number;
    dest?: string;
    hostname?: string;
  };
  const meaning = typeof e.code === 'string' ? userErrnoMeanings[e.code] : undefined;
  if (meaning !== undefined) {
    if (e.port !== undefined) {
      const advice =
        e.code === 'EADDRINUSE' && portOptions.length > 0
          ? `: pass a free port with ${portOptions.map((o) => `--${o}`).join(' or ')}`
          : '';
      return `${e.address ?? 'port'}:${e.port} ${meaning} (${e.code})${advice}`;
    }
    if (e.path !== undefined) {
      const dest = typeof e.dest === 'string' ? ` -> ${e.dest}` : '';
      return `${e.path}${dest}: ${meaning} (${e.code})`;
    }
    if (e.hostname !== undefined) return `${e.hostname}: ${meaning} (${e.code})`;
    return oneLine(e.message);
  }
  if (syntaxErrorNames.has(e.name)) return `malformed input: ${oneLine(e.message)}`;
  return undefined;
}

/**
 * Why a `fetch` got no answer, as one line. Node's undici-based fetch rejects with a bare "fetch failed" and
 * keeps the reason in `cause` (a refused connection, an unknown host, a bad port); an AbortSignal.timeout
 * rejects with a TimeoutError.
 */
export function describeFetchFailure(err: unknown): string {
  const cause = (err as { cause?: unknown } | undefined)?.cause;
  const described = describeUserError(cause);
  if (described !== undefined) return described;
  if (cause instanceof Error) return `${(err as Error).message}: ${cause.message}`;
  if (err instanceof Error && err.name === 'TimeoutError') return `no answer in time (${err.message})`;
  return err instanceof Error ? err.message : String(err);
}
