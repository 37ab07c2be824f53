/**
 * Finds suites by file name in the suites folder and loads them with a dynamic `import()`, so a new
 * `bench/src/suites/<name>.ts` is picked up without any registry. The folder holds `.js` files when
 * run from `dist/` and `.ts` files when run from source (tests); both are handled.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { UsageError } from '@pentagate/protocol';
import type { BenchSuite } from './suite.js';

/** The suites folder next to this harness (src/suites or dist/suites). */
export const DEFAULT_SUITES_DIR = fileURLToPath(new URL('../suites/', import.meta.url));

const SUITE_FILE = /^([a-z][a-z0-9-]*)\.(?:js|ts)$/;

/** Suite names found in `dir`, sorted. */
export function listSuites(dir: string = DEFAULT_SUITES_DIR): string[] {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return [];
  }
  const names = new Set<string>();
  for (const file of files) {
    if (file.endsWith('.d.ts')) continue;
    const match = SUITE_FILE.exec(file);
    if (match?.[1] !== undefined) names.add(match[1]);
  }
  return [...names].sort();
}

/** Throws a UsageError listing the available suites when a name is not one of them. */
export function checkSuiteNames(requested: readonly string[], available: readonly string[]): void {
  const unknown = requested.filter((n) => !available.includes(n));
  if (unknown.length === 0) return;
  const list = available.length > 0 ? available.join(', ') : '(none found)';
  const what = unknown.length === 1 ? 'unknown suite' : 'unknown suites';
  throw new UsageError(`${what} ${unknown.map((n) => JSON.stringify(n)).join(', ')}; available: ${list}`);
}

function isBenchSuite(value: unknown): value is BenchSuite {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.name === 'string' && typeof v.description === 'string' && typeof v.run === 'function';
}

/** Imports `<dir>/<name>.js` and returns its default export (or its `suite` export). */
export async function loadSuite(name: string, dir: string = DEFAULT_SUITES_DIR): Promise<BenchSuite> {
  // `.js` also resolves to the `.ts` source under the TypeScript loader the tests run with.
  const url = pathToFileURL(`${dir.replace(/\/$/, '')}/${name}.js`).href;
  const module = (await import(url)) as { default?: unknown; suite?: unknown };
  const suite = module.default ?? module.suite;
  if (!isBenchSuite(suite)) {
    throw new TypeError(
      `suite file ${name}: expected a default export { name, description, run(ctx) }, got ${typeof suite}`,
    );
  }
  if (suite.name !== name) {
    throw new TypeError(
      `suite file ${name}: expected name ${JSON.stringify(name)}, got ${JSON.stringify(suite.name)}`,
    );
  }
  return suite;
}
