/**
 * Opens the recordings users have: one MCAP or sqlite3 (`.db3`) file, or a rosbag2 bag directory — with its
 * `metadata.yaml` (`relative_file_paths`, in recording order, and `storage_identifier`), or without one (a split
 * bag whose metadata was never written: its `.mcap`/`.db3` files in name order, as `ros2 bag reindex` orders them).
 * A split bag is read file after file as one recording. The storage is told by the file's first bytes, not its
 * name: MCAP magic `\x89MCAP0\r\n` (MCAP spec, Magic) or `SQLite format 3\0` (SQLite file format, header).
 */
import { existsSync } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { TransportError } from '../transport/transport-error.js';
import { MCAP_MAGIC } from './mcap-file.js';
import { type ReadOptions, type RecordedItem, readRosbag } from './rosbag-reader.js';
import { readRosbagSqlite } from './rosbag-sqlite-reader.js';

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
/** rosbag2's `compression_mode: file` compresses whole storage files, which are not read here. */
const FILE_COMPRESSED =
  'the bag was recorded with whole-file compression (compression_mode FILE), which is not read: rewrite it uncompressed with `ros2 bag convert` (output options without compression), or `zstd -d` each file';

/** How many first bytes are read to tell the storage (and name what a file is when it is no recording). */
const HEAD_BYTES = 64;

/** Files that are often taken for a recording, each by its first bytes, with what to do about it. */
const NOT_RECORDINGS: readonly { is(head: Buffer): boolean; detail: string }[] = [
  {
    // ROS 1 bag format 2.0 (wiki.ros.org/Bags/Format/2.0): the version line comes first.
    is: (head) => head.toString('latin1').startsWith('#ROSBAG V'),
    detail:
      'a ROS 1 bag, not a rosbag2 recording: convert it with the `rosbags` tool (rosbags-convert --src FILE --dst DIR)',
  },
  {
    // git-lfs spec v1: a pointer file starts with its version line.
    is: (head) => head.toString('latin1').startsWith('version https://git-lfs.github.com/spec/'),
    detail: 'a Git LFS pointer file, not the recording itself: fetch it with `git lfs pull`',
  },
  {
    // Zstandard frame magic (RFC 8878 §3.1.1): rosbag2 with compression_mode FILE compresses each whole file.
    is: (head) => head.length >= 4 && head.readUInt32LE(0) === 0xfd2fb528,
    detail: `a zstd-compressed file: ${FILE_COMPRESSED}`,
  },
];

function unreadable(path: string, detail: string): TransportError {
  return new TransportError('MCAP_UNREADABLE', `recording ${path}: ${detail}`);
}

async function storageOf(path: string): Promise<'mcap' | 'sqlite3'> {
  let head: Buffer;
  try {
    const fh = await open(path, 'r');
    try {
      head = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await fh.read(head, 0, HEAD_BYTES, 0);
      head = head.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  } catch (err) {
    throw unreadable(
      path,
      `cannot open it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  if (head.length === 0) throw unreadable(path, 'the file is empty');
  if (head.subarray(0, 8).equals(MCAP_MAGIC)) return 'mcap';
  if (head.subarray(0, 16).equals(SQLITE_MAGIC)) return 'sqlite3';
  const known = NOT_RECORDINGS.find((n) => n.is(head));
  if (known) throw unreadable(path, known.detail);
  throw unreadable(path, 'neither MCAP nor a rosbag2 sqlite3 database (unknown magic bytes)');
}

/** Called with what a reader should know about a recording that is still read (a split file missing). */
export type RecordingWarning = (warning: string) => void;

/**
 * Split files are named `<bag>_<index>` from 0 (rosbag2 SequentialWriter, `split_bagfile`): without the metadata
 * that lists them, a hole in the indices is a file that is gone, and the recording has a gap in time there.
 */
function warnOfMissingSplits(
  dir: string,
  files: readonly string[],
  index: (f: string) => number,
  warn: RecordingWarning,
) {
  const present = new Set(files.map(index).filter(Number.isInteger));
  if (present.size === 0) return;
  const missing: number[] = [];
  for (let i = 0; i < Math.max(...present); i += 1) if (!present.has(i)) missing.push(i);
  if (missing.length > 0) {
    warn(
      `${dir}: split file${missing.length === 1 ? '' : 's'} ${missing.join(', ')} of ${files.map((f) => basename(f)).join(', ')} missing (no metadata.yaml to list them): the recording has a gap there`,
    );
  }
}

/**
 * Where a file metadata.yaml lists is. Relative to the bag directory from metadata version 4 on; before that
 * (rosbag2 up to Eloquent) relative to its parent, so with the directory's name in front, which is wrong once the
 * directory was renamed or moved; absolute paths appear in hand-edited files. The file named in the bag
 * directory is taken when the path as written does not exist.
 */
function listedFile(dir: string, p: string): string {
  const asWritten = isAbsolute(p) ? p : join(dir, p);
  if (existsSync(asWritten)) return asWritten;
  const inDir = join(dir, basename(p));
  return existsSync(inDir) ? inDir : asWritten;
}

/**
 * Storage files in the bag directory that metadata.yaml does not list are not part of the recording rosbag2
 * plays (a recorder that died before rewriting the metadata leaves its last split files so): say so.
 */
async function warnOfUnlistedFiles(dir: string, listed: readonly string[], warn: RecordingWarning) {
  const names = new Set(listed.map((f) => resolve(f)));
  const unlisted = (await readdir(dir)).filter(
    (f) => /\.(mcap|db3)$/.test(f) && !names.has(resolve(join(dir, f))),
  );
  if (unlisted.length > 0) {
    warn(
      `${dir}: ${unlisted.join(', ')} ${unlisted.length === 1 ? 'is' : 'are'} in the bag directory but not in metadata.yaml's relative_file_paths, so not replayed (as rosbag2 would not play ${unlisted.length === 1 ? 'it' : 'them'}); if the recorder died before rewriting the metadata, run \`ros2 bag reindex\` or replay the file by itself`,
    );
  }
}

/** The members of rosbag2's `BagMetadata` read here, as metadata.yaml writes them (unchecked). */
export interface BagInformation {
  relative_file_paths?: unknown;
  compression_mode?: unknown;
  message_count?: unknown;
  topics_with_message_count?: unknown;
}

/**
 * `rosbag2_bagfile_information` of the bag directory's metadata.yaml: `absent` when the directory has none
 * (a split bag whose metadata was never written), undefined when the file has no such section; metadata that
 * is not YAML is refused.
 */
export async function bagInformation(dir: string): Promise<BagInformation | undefined | 'absent'> {
  let metadata: string;
  try {
    metadata = await readFile(join(dir, 'metadata.yaml'), 'utf8');
  } catch {
    return 'absent';
  }
  try {
    return (parseYaml(metadata) as { rosbag2_bagfile_information?: BagInformation } | null)
      ?.rosbag2_bagfile_information;
  } catch (err) {
    throw unreadable(dir, `metadata.yaml is not YAML: ${(err as Error).message}`);
  }
}

/** The files of a bag directory, in recording order. */
export async function bagFiles(dir: string, warn: RecordingWarning = () => {}): Promise<string[]> {
  const info = await bagInformation(dir);
  if (info !== 'absent') {
    const paths = info?.relative_file_paths;
    if (typeof info?.compression_mode === 'string' && info.compression_mode.toUpperCase() === 'FILE') {
      // Decompressed beside the compressed files (`zstd -d`, as the error advises): read those.
      const listed =
        Array.isArray(paths) && paths.every((p) => typeof p === 'string') ? (paths as string[]) : [];
      const decompressed = listed.map((p) => listedFile(dir, p.replace(/\.zstd$/, '')));
      if (listed.length > 0 && decompressed.every((f) => existsSync(f) && !f.endsWith('.zstd'))) {
        warn(
          `${dir}: metadata.yaml says compression_mode FILE; the decompressed ${decompressed.map((f) => basename(f)).join(', ')} beside the .zstd files are read`,
        );
        return decompressed;
      }
      throw unreadable(dir, FILE_COMPRESSED);
    }
    if (Array.isArray(paths) && paths.length > 0 && paths.every((p) => typeof p === 'string')) {
      const listed = (paths as string[]).map((p) => listedFile(dir, p));
      await warnOfUnlistedFiles(dir, listed, warn);
      return listed;
    }
    // Without relative_file_paths (a metadata.yaml being rewritten), the files in the directory say it.
  }
  const all = await readdir(dir);
  const files = all.filter((f) => f.endsWith('.mcap') || f.endsWith('.db3'));
  if (files.length === 0 && all.some((f) => /\.(mcap|db3)\.zstd$/.test(f)))
    throw unreadable(dir, FILE_COMPRESSED);
  if (files.length === 0) throw unreadable(dir, 'a directory with no metadata.yaml, .mcap or .db3 file');
  // multiple_files_2 sorts after multiple_files_10 by name: order by the split index rosbag2 appends.
  const index = (f: string) => Number(/_(\d+)\.(mcap|db3)$/.exec(f)?.[1] ?? Number.NaN);
  warnOfMissingSplits(dir, files, index, warn);
  return files.sort((a, b) => index(a) - index(b) || (a < b ? -1 : a > b ? 1 : 0)).map((f) => join(dir, f));
}

/** The files a recording path stands for: itself, or its bag directory's files. */
export async function recordingFiles(path: string, warn?: RecordingWarning): Promise<string[]> {
  let isDir = false;
  try {
    isDir = (await stat(path)).isDirectory();
  } catch (err) {
    throw unreadable(
      path,
      `cannot open it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  return isDir ? bagFiles(path, warn) : [path];
}

/** Yields every message of the recording (file or bag directory), file after file. */
export async function* readRecording(
  path: string,
  warn?: RecordingWarning,
  options: ReadOptions = {},
): AsyncGenerator<RecordedItem, void, void> {
  // What the MCAP reader says of each file of a split bag (chunks without CRC, no summary) is said once.
  const said = new Set<string>();
  const once = (file: string) => (w: string) => {
    const key = w.startsWith(`${file}: `) ? w.slice(file.length + 2) : w;
    if (said.has(key)) return;
    said.add(key);
    warn?.(w);
  };
  for (const file of await recordingFiles(path, warn)) {
    if ((await storageOf(file)) === 'mcap') yield* readRosbag(file, { warn: once(file), ...options });
    else yield* readRosbagSqlite(file, options);
  }
}
