/**
 * The forms under which one string argument can name a file, for the protected-resource rule: a tool
 * that opens a path may trim it, read `\` as `/`, resolve `.` and `..`, ignore a trailing `/`, accept a
 * `file:` URL, percent-decode it (a storage API or an HTTP file server does), strip a Windows drive or
 * the trailing dots and spaces Windows drops from a name, follow Linux's `/proc/<pid>/root` link to `/` or a
 * symbolic link before a `..`, or stop at a NUL; so a pattern is tested against each of these forms and a
 * call is refused when any one matches (fail closed: a form no tool would open costs nothing unless it names
 * a protected resource).
 */
import { cleanedPath, normalizedPath } from './lexical-path.js';

/**
 * RFC 8089 §2: a file URL names a local path, percent-encoded, when it has no host or the host `localhost`
 * (`file:///etc/passwd`, `file://localhost/etc/passwd`), or no authority at all (`file:/etc/passwd`, the
 * `local-path` form, which Node's fileURLToPath, Python's urllib and curl all open).
 */
const FILE_URL = /^file:(?:\/\/(?:localhost)?(\/.*)|(\/(?!\/).*))$/i;

/**
 * proc(5): `/proc/<pid>/root` (and `self`, `thread-self`, and each thread's `task/<tid>/root`) is a link to
 * the process's root directory, so `/proc/self/root/etc/passwd` opens `/etc/passwd`; `/proc/<pid>/cwd` links
 * to its working directory, which is unknown here, so what follows it is read as a relative path
 * (normalForms roots a climb out). Both are tested on the cleaned and resolved forms as well as the raw
 * one, since `/proc//self/./root` and `/proc/self/../self/root` open the same link.
 */
const PROC_ROOT = /^\/proc\/(?:self|thread-self|\d+)(?:\/task\/\d+)?\/root(?=\/|$)/;
const PROC_CWD = /^\/proc\/(?:self|thread-self|\d+)(?:\/task\/\d+)?\/cwd(?:\/|$)/;

/**
 * A shell's tilde prefix (POSIX.1-2017 §2.6.1): `~` or `~user` is some user's home directory, unknown here,
 * so what follows is read as a relative path, as after `/proc/<pid>/cwd` (`~root/../etc/shadow`).
 */
const TILDE_PREFIX = /^~[^/]*(?:\/|$)/;

/**
 * NTFS stream syntax: `name:stream:$TYPE`, with `::$DATA` the file's own content, so `.env::$DATA` opens
 * `.env` (and `dir::$INDEX_ALLOCATION` the directory).
 */
const NTFS_STREAM = /:[^/:]*:\$[A-Za-z_]+(?=\/|$)/g;

/**
 * Windows UNC admin shares (`\\host\C$\…`, also behind the `\\?\UNC\` and `\\.\UNC\` device prefixes) are
 * the whole drive of that host (Windows administrative shares, `C$` for drive C): `\\localhost\C$\Windows` and
 * `\\127.0.0.1\c$\Windows` open `C:\Windows` on this machine. Any host is read so, since the gate cannot
 * tell which names (its own name, an alias, an address) are this machine. Matched once `\` is read as `/`.
 */
const UNC_ADMIN_SHARE = /^\/\/(?:[?.]\/UNC\/)?[^/]+\/([A-Za-z])\$(?=\/|$)/i;

/**
 * Windows paths: the `\\?\` and `\\.\` device prefixes (already `//?/` once `\` is read as `/`), then a drive
 * (`C:`), leave the path on that drive, which `/` patterns name.
 */
const WINDOWS_PREFIX = /^(?:\/\/[?.]\/)?[A-Za-z]:(?=\/|$)/;

/** Win32 drops trailing dots and spaces from every path component (`.env.` opens `.env`). */
const TRAILING_DOTS = /(?<=[^/.])[. ]+(?=\/|$)/g;

/**
 * Symbolic links: the kernel resolves `..` after following a link (path_resolution(7)), so `/var/run/../etc`
 * opens `/etc` where `/var/run` links to `/run`, while lexical resolution reads `/var/etc`. Each `..` after a
 * name is therefore also read as a climb from an unknown directory (the link's target, which may be `/`), for
 * at most this many `..` at each end of the path, and only for paths open(2) takes (PATH_MAX below).
 */
const MAX_LINK_CLIMBS_PER_END = 4;

/** Percent-decoding rounds tried: double encoding (`%252e`) is a classic filter bypass. */
const MAX_DECODE_ROUNDS = 3;

/**
 * Linux's PATH_MAX (limits.h): open(2) refuses a longer path, so a longer string names a file only through a
 * tool that resolves it first, and needs few readings; it is also where each reading costs most.
 */
const PATH_MAX_CHARS = 4096;

/**
 * Readings derived from one string at most (each rule below adds at most a few; the injection corpus's
 * texts have at most 5). A string with more, such as `/proc/self/root` a thousand times over, is refused
 * rather than read in part (fail closed).
 */
const MAX_FORMS = 64;
const MAX_FORMS_BEYOND_PATH_MAX = 16;

export interface ResourcePathForms {
  forms: string[];
  /** False when the string had more readings than are derived: the caller must refuse it. */
  complete: boolean;
}

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

/**
 * `.` and `..` resolved, and a relative path also rooted: it is opened from the tool's working directory,
 * which is unknown here and is `/` for every process started without one (daemons, systemd's default; the
 * same reading as after `/proc/<pid>/cwd/`), so `etc/passwd` and `./etc/shadow` may open `/etc/passwd` and
 * `/etc/shadow` (outside attack review: both were approved), and a climb out of the start (`x/../../etc`,
 * `~/../../etc`) may reach `/` from anywhere. A project's own `etc/` is therefore named by its absolute path.
 */
function normalForms(path: string): string[] {
  const normal = withoutTrailingSlash(normalizedPath(path));
  const forms = [normal];
  if (!normal.startsWith('/')) {
    const fromRoot = `/${normal.replace(/^(?:\.\.(?:\/|$))+/, '')}`;
    if (normal !== '.' && fromRoot !== '/') forms.push(fromRoot);
  } else {
    const root = afterProcRoot(normal);
    if (root !== undefined) forms.push(root);
  }
  return forms;
}

/**
 * The readings of `path` where a `..` follows a link: from each such `..` on, the path climbs from an unknown
 * directory (the first and last MAX_LINK_CLIMBS_PER_END of them; see that constant).
 */
function linkClimbForms(path: string): string[] {
  if (path.length > PATH_MAX_CHARS || !path.includes('..')) return [];
  const segments = path.split('/');
  const climbs: number[] = [];
  for (let i = 1; i < segments.length; i++) {
    const before = segments[i - 1];
    if (segments[i] === '..' && before !== '' && before !== '.' && before !== '..') climbs.push(i);
  }
  const ends =
    climbs.length <= 2 * MAX_LINK_CLIMBS_PER_END
      ? climbs
      : [...climbs.slice(0, MAX_LINK_CLIMBS_PER_END), ...climbs.slice(-MAX_LINK_CLIMBS_PER_END)];
  return ends.flatMap((i) => normalForms(segments.slice(i).join('/')));
}

/** The path a `/proc/<pid>/root` link leads to (`/` for the bare link), or undefined for any other path. */
function afterProcRoot(path: string): string | undefined {
  return PROC_ROOT.test(path) ? path.replace(PROC_ROOT, '') || '/' : undefined;
}

/**
 * The readings of a path after a prefix that names an unknown directory (`/proc/<pid>/cwd/`, `~user/`): as
 * relative, and, after `/proc/<pid>/cwd/`, also from `/`, the working directory of every process started
 * without one (daemons, systemd's default): `/proc/self/cwd/etc/passwd` opens `/etc/passwd` there (outside
 * review: it was approved while `/proc/self/root/etc/passwd` was refused).
 */
function afterUnknownDirectory(path: string): string[] {
  const cwd = PROC_CWD.exec(path);
  if (cwd) {
    const relative = path.slice(cwd[0].length);
    return [relative, `/${relative}`];
  }
  const tilde = TILDE_PREFIX.exec(path);
  return tilde ? [path.slice(tilde[0].length)] : [];
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
  // C strings end at NUL: open(2) given `/app/.env\0.txt` (from `%00`) opens `/app/.env`
  const nul = trimmed.indexOf('\0');
  if (nul >= 0) out.push(trimmed.slice(0, nul));
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
  resolved.push(...normalForms(slashed), ...linkClimbForms(slashed));
  const url = FILE_URL.exec(slashed);
  const urlPath = url?.[1] ?? url?.[2];
  if (urlPath) {
    out.push(decodedPercent(urlPath));
    // RFC 3986 §3.3: the path ends at `?` or `#` (Node's fileURLToPath drops both); a literal one is `%3F`/`%23`
    const pathOnly = urlPath.replace(/[?#][\s\S]*$/, '');
    if (pathOnly !== urlPath) out.push(decodedPercent(pathOnly));
  }
  const share = UNC_ADMIN_SHARE.exec(slashed);
  if (share) out.push(`${share[1]}:${slashed.slice(share[0].length) || '/'}`);
  const drive = WINDOWS_PREFIX.exec(slashed);
  if (drive) out.push(slashed.slice(drive[0].length) || '/');
  // The links are matched on the cleaned form too (`/proc//self/./root`), which is not itself a reading:
  // cleaned, `file://etc/passwd` (host `etc`) would read as the local-path URL `file:/etc/passwd`.
  const cleaned = cleanedPath(slashed);
  for (const path of cleaned === slashed ? [slashed] : [slashed, cleaned]) {
    const root = afterProcRoot(path);
    if (root !== undefined) out.push(root);
    out.push(...afterUnknownDirectory(path));
  }
  const undotted = slashed.replace(TRAILING_DOTS, '');
  if (undotted !== slashed) out.push(undotted);
  const unstreamed = slashed.replace(NTFS_STREAM, '');
  if (unstreamed !== slashed) out.push(unstreamed);
  return out;
}

export function resourcePathForms(value: string): ResourcePathForms {
  const maxForms = value.length > PATH_MAX_CHARS ? MAX_FORMS_BEYOND_PATH_MAX : MAX_FORMS;
  const forms = new Set([value]);
  const pending = [value];
  const resolved: string[] = [];
  while (pending.length > 0) {
    for (const next of readingsOf(pending.pop()!, resolved)) {
      if (forms.has(next)) continue;
      if (forms.size >= maxForms) return { forms: [...forms, ...resolved], complete: false };
      forms.add(next);
      pending.push(next);
    }
  }
  for (const f of resolved) forms.add(f);
  return { forms: [...forms], complete: true };
}
