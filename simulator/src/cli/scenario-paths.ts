/** Where the bundled scenarios live, found from this file (src/ or dist/ alike). */
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SCENARIO_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../scenarios');
export const DEMO_SCENARIO = join(SCENARIO_DIR, 'demo-cell.yaml');

/** The `.yaml` files of a directory, sorted. */
export function scenarioFiles(dir = SCENARIO_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort()
    .map((f) => join(dir, f));
}

/**
 * Why `sim run FILE` found no file, and where to look: `sim list` prints scenario names, which a new user
 * passes as they are (`sim run human-in-radius`), so a bundled scenario of that name is named by its path.
 */
export function missingScenarioMessage(file: string, dir = SCENARIO_DIR): string {
  const bundled = join(dir, `${basename(file).replace(/\.ya?ml$/, '')}.yaml`);
  const where = relative(process.cwd(), bundled) || bundled;
  const hint = existsSync(bundled)
    ? `; the bundled scenario of that name is ${where}`
    : `; \`pentagate sim list\` names the bundled scenarios in ${relative(process.cwd(), dir) || '.'}/`;
  return `scenario ${file}: no such file${hint}`;
}
