/**
 * Lexical POSIX path forms in time linear in the path's length. Node's `path.posix.normalize` copies its
 * partial result on every `..` (quadratic), and every string argument of every call is read as a possible
 * path, so one 840 KB `a/b/../…` argument held the event loop for over a minute. These read the path once,
 * as a stack of segments (POSIX.1-2017 §4.13 pathname resolution, without following links).
 */

const SLASH = 0x2f;
const DOT = 0x2e;

/**
 * The same string `path.posix.normalize` returns: repeated `/` and `.` segments dropped, each `..` removing
 * the segment before it (at the root it stays at the root; a relative path keeps its leading `..`s), a
 * trailing `/` kept, and `.` for an empty result.
 */
export function normalizedPath(path: string): string {
  return lexicalPath(path, true);
}

/**
 * Repeated `/` and `.` segments dropped, every `..` kept: the path the kernel resolves, written once without
 * the no-op spellings (`/proc//self/./root` is `/proc/self/root`), while `..` after a symbolic link such as
 * `/proc/self` still means the link target's parent.
 */
export function cleanedPath(path: string): string {
  return lexicalPath(path, false);
}

/**
 * Segments are kept as [start, end) offsets into `path`, on a stack of typed arrays (Array#pop shrinks its
 * store, which made a million `a/..` pairs slow), and cut out only at the end, in runs: a path of a million
 * segments, `/` runs or `..`s allocates no string per segment. The stack is reused from call to call (the
 * functions are synchronous) and grows by doubling, so a long path does not allocate a new one each time.
 */
const INITIAL_SEGMENTS = 256;
/**
 * The most segments whose stack is kept after a call (64 Ki, 512 KiB in all): a longer path grows a stack for
 * its own call, which is then dropped, so one 1 MiB argument does not leave megabytes held for the process's life.
 */
const MAX_KEPT_SEGMENTS = 65_536;
let starts = new Int32Array(INITIAL_SEGMENTS);
let ends = new Int32Array(INITIAL_SEGMENTS);

/** Segments the kept stack holds now (read by the test that bounds what a long path leaves behind). */
export function keptSegmentCapacity(): number {
  return starts.length;
}

function releaseLargeStack(): void {
  if (starts.length <= MAX_KEPT_SEGMENTS) return;
  starts = new Int32Array(INITIAL_SEGMENTS);
  ends = new Int32Array(INITIAL_SEGMENTS);
}

function pushSegment(count: number, start: number, end: number): void {
  if (count === starts.length) {
    const grownStarts = new Int32Array(count * 2);
    const grownEnds = new Int32Array(count * 2);
    grownStarts.set(starts);
    grownEnds.set(ends);
    starts = grownStarts;
    ends = grownEnds;
  }
  starts[count] = start;
  ends[count] = end;
}

function lexicalPath(path: string, resolveParents: boolean): string {
  if (path === '') return '.';
  const absolute = path.charCodeAt(0) === SLASH;
  const trailingSlash = path.charCodeAt(path.length - 1) === SLASH;
  let count = 0;
  for (let start = 0, end = 0; start <= path.length; start = end + 1) {
    end = start;
    while (end < path.length && path.charCodeAt(end) !== SLASH) end++;
    const kind = segmentKind(path, start, end);
    if (kind === EMPTY) continue;
    if (kind === PARENT && resolveParents) {
      if (count > 0 && segmentKind(path, starts[count - 1]!, ends[count - 1]!) !== PARENT) {
        count--;
        continue;
      }
      if (absolute) continue; // `/..` is `/`
    }
    pushSegment(count, start, end);
    count++;
  }
  let joined = joinedSegments(path, count);
  releaseLargeStack();
  if (joined === '' && !absolute) joined = '.';
  if (joined !== '' && trailingSlash) joined += '/';
  return absolute ? `/${joined}` : joined;
}

const EMPTY = 0; // `` or `.`: dropped
const PARENT = 1; // `..`
const NAME = 2;

function segmentKind(path: string, start: number, end: number): number {
  const length = end - start;
  if (length === 0) return EMPTY;
  if (length > 2 || path.charCodeAt(start) !== DOT) return NAME;
  if (length === 1) return EMPTY;
  return path.charCodeAt(start + 1) === DOT ? PARENT : NAME;
}

/** The kept segments joined by `/`, each run of segments already so joined in `path` cut out whole. */
function joinedSegments(path: string, count: number): string {
  const pieces: string[] = [];
  let runStart = -1;
  let runEnd = -1;
  for (let i = 0; i < count; i++) {
    if (runStart < 0 || starts[i] !== runEnd + 1) {
      if (runStart >= 0) pieces.push(path.slice(runStart, runEnd));
      runStart = starts[i]!;
    }
    runEnd = ends[i]!;
  }
  if (runStart >= 0) pieces.push(path.slice(runStart, runEnd));
  return pieces.join('/');
}
