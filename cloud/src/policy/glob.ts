/**
 * Globs for policy patterns, compiled once at load time. Case-insensitive on purpose: a tool executor or
 * file system that folds case must not let `Shell.Exec` slip past a rule written for `shell.exec`.
 * Only `*`, `**` and `?` are special; everything else is literal, so a pattern can never become an
 * expensive regular expression beyond a chain of `.*`.
 */
export type GlobMode = 'name' | 'path';

function escapeLiteral(ch: string): string {
  return /[\\^$.|+()[\]{}]/.test(ch) ? `\\${ch}` : ch;
}

/**
 * `name` mode (tool, lobe and agent names): `*` matches any run of characters.
 * `path` mode (resources): `**` matches anything, `*` anything but `/`, `?` one character but `/`; a
 * whole segment `**/ ` also matches no directory at all, and a final `; /**` the directory itself.
 */
export function compileGlob(pattern: string, mode: GlobMode): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '*') {
      const double = pattern[i + 1] === '*';
      const segmentStart = i === 0 || pattern[i - 1] === '/';
      if (double) i++;
      // Collapse runs of stars: `***` is as good as `**` and avoids needless backtracking.
      while (pattern[i + 1] === '*') i++;
      const segmentEnd = i + 1 === pattern.length || pattern[i + 1] === '/';
      if (mode === 'path' && double && segmentStart && pattern[i + 1] === '/') {
        // `**/` is zero or more whole directories (as in .gitignore): `**/.env` is also `.env` itself.
        out += '(?:.*/)?';
        i++;
      } else if (mode === 'path' && double && segmentEnd && out.endsWith('/')) {
        // A trailing `/**` covers the directory itself too: acting on `/etc` acts on all inside it.
        out = `${out.slice(0, -1)}(?:/.*)?`;
      } else {
        out += mode === 'name' || double ? '.*' : '[^/]*';
      }
    } else if (ch === '?') {
      out += mode === 'name' ? '.' : '[^/]';
    } else {
      out += escapeLiteral(ch);
    }
  }
  return new RegExp(`^${out}$`, 'is');
}

/** True when any of the compiled globs matches `value`. */
export function matchesAny(globs: readonly RegExp[], value: string): boolean {
  return globs.some((g) => g.test(value));
}
