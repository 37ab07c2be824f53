/**
 * The line for an option a command does not have. node:util parseArgs words it for positionals that start
 * with '-' ("To specify a positional argument starting with a '-', …"), which misleads far more often than
 * it helps: the usual cause is a typo, so name the closest option instead and point at --help.
 */

/** Levenshtein distance (insert, delete, substitute), for option names of a few dozen characters. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitute = (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      next.push(Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, substitute));
    }
    row = next;
  }
  return row[b.length] ?? 0;
}

/** "unknown option '--kindd' (did you mean --kind?); `pentagate keys generate --help` lists the options". */
export function unknownOptionMessage(
  given: string,
  optionNames: readonly string[],
  commandPath: string,
): string {
  const name = given.replace(/^-+/, '').split('=')[0] ?? '';
  const option = closestName(name.replaceAll('_', '-'), optionNames);
  const hint = option ? ` (did you mean --${option}?)` : '';
  return `unknown option '${given}'${hint}; \`pentagate ${commandPath} --help\` lists the options`;
}

/**
 * The name a typo most likely meant (an option, or a command word: `verfy` for `verify`), or undefined.
 * A typo is at most two edits away, and not more than a third of the name (so `x` suggests nothing).
 */
export function closestName(given: string, names: readonly string[]): string | undefined {
  const limit = Math.min(2, Math.floor(given.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(given, name);
    if (distance <= limit && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
