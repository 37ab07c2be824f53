/**
 * The console's built files (cloud/console/build.mjs writes them into cloud/console-dist at `npm run build`):
 * read once at start-up and served from memory. A cloud started before the console was built still serves its
 * API; `/console` then answers 503 with what to run, instead of failing the whole server.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface ConsoleAsset {
  contentType: string;
  body: Buffer;
}

/** The bundle's folder: the same relative place from cloud/src/console and cloud/dist/console. */
export const CONSOLE_DIST_DIR = fileURLToPath(new URL('../../console-dist/', import.meta.url));

const FILES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
};

/** The assets by file name, or undefined when the console has not been built. */
export function loadConsoleAssets(dir = CONSOLE_DIST_DIR): Map<string, ConsoleAsset> | undefined {
  if (!Object.keys(FILES).every((name) => existsSync(`${dir}${name}`))) return undefined;
  return new Map(
    Object.entries(FILES).map(([name, contentType]) => [
      name,
      { contentType, body: readFileSync(`${dir}${name}`) },
    ]),
  );
}
