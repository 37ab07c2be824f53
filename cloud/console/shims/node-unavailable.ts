/**
 * Stand-in for the Node built-ins that only the shared packages' file-reading code uses (node:fs,
 * node:fs/promises, node:path, node:util); the console never calls them. `unavailable` is also what the
 * other shims export for the functions the page does not have.
 */
export function unavailable(): never {
  throw new Error('not available in the browser (a Node built-in the console does not use)');
}
export const open = unavailable;
export const readFile = unavailable;
export const lstat = unavailable;
export const stat = unavailable;
export const readdir = unavailable;
export const createReadStream = unavailable;
export const join = unavailable;
export const dirname = unavailable;
export const parseArgs = unavailable;
