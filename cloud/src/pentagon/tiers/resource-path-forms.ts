/**
 * The forms under which one string argument can name a file, for the protected-resource rule: a tool
 * that opens a path may trim it, read `\` as `/`, resolve `.` and `..`, ignore a trailing `/`, accept a
 * `file:` URL, percent-decode it (a storage API or an HTTP file server does), strip a Windows drive or
 * the trailing dots and spaces Windows drops from a name, or follow Linux's `/proc/<pid>/root` link to
 * `/`; so a pattern is tested against each of these forms and a call is refused when any one matches
 * (fail closed: a form no tool would open costs nothing unless it names a protected resource).
 */
import { posix } from 'node:path';

/**
 * RFC 8089 §2: a file URL names a local path, percent-encoded, when it has no host or the host `localhost`
 * (`file:///etc/passwd`, `file://localhost/etc/passwd`), or no authority at all (`file:/etc/passwd`, the
 * `local-path` form, which Node's fileURLToPath, Python's urllib and curl all open).
 */
const FILE_URL = /^file:(?:\/\/(?:localhost)?(\/.*)|(\/(?!\/).*))$/i;

/**
 * proc(5): `/proc/<pid>/root` (and `self`, `thread-self`) is a link to the process's root directory, so
 * `/proc/self/root/etc/passwd` opens `/etc/passwd`; `/proc/<pid>/cwd` links to its working directory,
 * which is unknown here, so what follows it is read as a relative path (normalForms roots a climb out).
 */
const PROC_ROOT = /^\/proc\/(?:self|thread-self|\d+)\/root(?=\/|$)/;
const PROC_CWD = /^\/proc\/(?:self|thread-self|\d+)\/cwd(?:\/|$)/;

/**
 * Windows paths: the `\\?\` and `\\.\` device prefixes (already `//?/` once `\` is read as `/`), then a drive
 * (`C:`), leave the path on that drive, which `/` patterns name.
 */
const WINDOWS_PREFIX = /^(?:\/\/[?.]\/)?[A-Za-z]:(?=\/|$)/;

/** Win32 drops trailing dots and spaces from every path component (`.env.` opens `.env`). */
const TRAILING_DOTS = /(?<=[^/.])[. ]+(?=\/|$)/g;

/** Percent-decoding rounds tried: double encoding (`%252e`) is a classic filter bypass. */
const MAX_DECODE_ROUNDS = 3;

/** More forms than this from one string are not derived (each rule below adds at most a few). */
const MAX_FORMS = 64;

function decodedPercent(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path; // not valid percent-encoding: the tool cannot decode it either
  }
}

function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** `.` and `..` resolved, and a relative path that climbs out of its start (`x/../../etc`, `~/../../etc`)
 * also rooted: the start directory is unknown, so the climb may reach `/`. */
function normalForms(path: string): string[] {
  const normal = withoutTrailingSlash(posix.normalize(path));
  if (!normal.startsWith('../') && normal !== '..') return [normal];
  return [normal, `/${normal.replace(/^(?:\.\.(?:\/|$))+/, '')}`];
}

/**
 * The forms one step away from `form`: `out`, each a reading a tool could make of it and read further, and
 * `resolved`, its `.`/`..`-resolved forms, which are final — a resolved `file://etc/passwd` (host `etc`)
 * would read as the local-path URL `file:/etc/passwd`, which no tool makes of it.
 */
function readingsOf(form: string, resolved: string[]): string[] {
  const out: string[] = [];
  const trimmed = form.trim();
  if (trimmed !== form) out.push(trimmed);
  if (trimmed.includes('%')) {
    let decoded = trimmed;
    for (let i = 0; i < MAX_DECODE_ROUNDS && decoded.includes('%'); i++) {
      const next = decodedPercent(decoded);
      if (next === decoded) break;
      out.push(next);
      decoded = next;
    }
  }
  const slashed = trimmed.replace(/\\/g, '/');
  if (!slashed.includes('/')) return out;
  if (slashed !== trimmed) out.push(slashed);
  resolved.push(...normalForms(slashed));
  const url = FILE_URL.exec(slashed);
  const urlPath = url?.[1] ?? url?.[2];
  if (urlPath) out.push(decodedPercent(urlPath));
  const drive = WINDOWS_PREFIX.exec(slashed);
  if (drive) out.push(slashed.slice(drive[0].length) || '/');
  if (PROC_ROOT.test(slashed)) out.push(slashed.replace(PROC_ROOT, '') || '/');
  const cwd = PROC_CWD.exec(slashed);
  if (cwd) out.push(slashed.slice(cwd[0].length));
  const undotted = slashed.replace(TRAILING_DOTS, '');
  if (undotted !== slashed) out.push(undotted);
  return out;
}

export function resourcePathForms(value: string): string[] {
  const forms = new Set([value]);
  const pending = [value];
  const resolved: string[] = [];
  while (pending.length > 0 && forms.size < MAX_FORMS) {
    for (const next of readingsOf(pending.pop()!, resolved)) {
      if (forms.has(next)) continue;
      forms.add(next);
      pending.push(next);
    }
  }
  for (const f of resolved) forms.add(f);
  return [...forms];
}
