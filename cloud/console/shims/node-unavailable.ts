/** Stand-in for Node built-ins that only file-reading code of the shared packages uses; the console never calls it. */
function unavailable(): never {
  throw new Error('not available in the browser');
}
export const open = unavailable;
export const readFile = unavailable;
export const lstat = unavailable;
export const readdir = unavailable;
export const join = unavailable;
export const parseArgs = unavailable;
