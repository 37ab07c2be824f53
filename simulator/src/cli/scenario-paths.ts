/** Where the bundled scenarios live, found from this file (src/ or dist/ alike). */
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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
