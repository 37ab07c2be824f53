/**
 * Offline audit kits (ARCHITECTURE.md §5; contract "Audit kit"): a directory with `manifest.json`,
 * `checkpoint.note`, `entries.jsonl` and `trust.json`. `pentagate verify kit` checks it end to end:
 *
 * 1. every file the manifest lists has the SHA-256 the manifest states, and no unlisted file is present;
 * 2. the checkpoint is signed by a trusted 'checkpoint' key, for the manifest's origin and treeSize;
 * 3. `entries.jsonl` holds exactly treeSize lines, each the canonical JCS of an AuditEntry whose index is
 *    its line number (from 0);
 * 4. the RFC 6962 root over the leaf hashes of those lines equals the checkpoint's root — so the kit is
 *    the whole log as the signed checkpoint committed to it, not a selection;
 * 5. every entry whose `data.envelope` is a DSSE envelope verifies (see entry-envelopes.ts);
 * 6. each robot's shipped records form an unbroken chain and a command history without holes
 *    (see robot-history.ts).
 *
 * Only `manifest.json` being unreadable makes the kit unreadable input; anything wrong inside the kit is a
 * failed check, because the manifest already commits to the bytes of every other file.
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Checkpoint, MerkleTree, TrustStore, sha256Hex } from '@pentagate/crypto';
import {
  type AuditKitManifest,
  AuditKitManifestSchema,
  InvalidInputError,
  readJson,
  validate,
} from '@pentagate/protocol';
import { type SignedCheckpoint, checkCheckpointSignature, describeCheckpoint } from './checkpoint.js';
import { KeyRetirementCheck } from './checkpoint-key-retirement.js';
import { ConsentGrantsCheck } from './consent-grants.js';
import { EntryEnvelopesCheck } from './entry-envelopes.js';
import { decodeUtf8, readInputBytes, readInputJson } from './input-files.js';
import { ReportBuilder, type VerificationReport } from './report.js';
import { RobotHistoriesCheck } from './robot-history.js';
import { type KitEntries, readKitEntries, sha256OfFile } from './kit-entries.js';

export const KIT_FILES = {
  manifest: 'manifest.json',
  checkpoint: 'checkpoint.note',
  entries: 'entries.jsonl',
  trust: 'trust.json',
} as const;

export interface AuditKitOptions {
  /**
   * The trust anchor: keys obtained independently of the kit (GET /api/v1/keys). Without it the kit's own
   * trust.json is read, which only shows the kit is self-consistent: whoever wrote the kit also wrote its
   * keys, so a kit forged whole, re-signed with keys of the forger's own, passes every other check. The
   * trust-anchor check then fails, unless `selfAssertedTrust` says the caller asks for self-consistency only.
   */
  trust?: TrustStore;
  /** Check against the kit's own trust.json and let that pass (the report still says it proves no signer). */
  selfAssertedTrust?: boolean;
  /** When given, the checkpoint key's validity window must cover it. */
  atMs?: number;
}

/** The listed files whose digests match: the small ones read, entries.jsonl by its digest (read later). */
interface KitFiles {
  contents: Map<string, Uint8Array>;
  /** entries.jsonl's SHA-256 when it matched the manifest's. */
  entriesSha256?: string;
}

/** Reads the listed files whose digests match; a missing or mismatched file is a failed check. */
async function checkFileDigests(
  report: ReportBuilder,
  dir: string,
  manifest: AuditKitManifest,
): Promise<KitFiles> {
  const contents = new Map<string, Uint8Array>();
  let entriesSha256: string | undefined;
  const required = Object.values(KIT_FILES).filter((f) => f !== KIT_FILES.manifest);
  const unlistedRequired = required.filter((f) => manifest.files[f] === undefined);
  // The manifest is not signed: a file it lists beyond the kit's own would show as "verified" in a VALID
  // report though nothing vouches for it, so the kit is its own files and nothing else.
  const foreign = Object.keys(manifest.files)
    .filter((f) => !(required as readonly string[]).includes(f))
    .sort();
  report.check(
    'manifest lists the kit files',
    unlistedRequired.length === 0 && foreign.length === 0,
    `${required.join(', ')} are listed, and nothing else`,
    unlistedRequired.length > 0
      ? `expected the manifest to list ${required.join(', ')}, got no entry for ${unlistedRequired.join(', ')}`
      : `expected the manifest to list only ${required.join(', ')}, got also ${foreign.join(', ')} (nothing signs them)`,
  );
  for (const [name, digest] of Object.entries(manifest.files)) {
    const path = join(dir, name);
    const info = await lstat(path).catch(() => undefined);
    if (!info?.isFile()) {
      report.fail(
        `digest of ${name}`,
        info ? 'expected a regular file, got a link or directory' : 'file is missing',
      );
      continue;
    }
    // entries.jsonl is the log, of any size: hashed here as a stream, and read line by line later
    // (kit-entries.ts); the other files are small and held whole
    let bytes: Uint8Array = new Uint8Array(0);
    let actual: string;
    try {
      if (name === KIT_FILES.entries) actual = await sha256OfFile(path);
      else {
        bytes = await readInputBytes(path, `audit kit file ${name}`);
        actual = sha256Hex(bytes);
      }
    } catch (err) {
      if (!(err instanceof InvalidInputError)) throw err;
      report.fail(`digest of ${name}`, err.message);
      continue;
    }
    if (
      report.check(
        `digest of ${name}`,
        actual === digest,
        `sha256 ${actual}`,
        `expected sha256 ${digest}, got ${actual}`,
      )
    ) {
      if (name === KIT_FILES.entries) entriesSha256 = actual;
      else contents.set(name, bytes);
    }
  }
  const listed = new Set([KIT_FILES.manifest, ...Object.keys(manifest.files)]);
  const unlisted = (await readdir(dir)).filter((name) => !listed.has(name)).sort();
  report.check(
    'no unlisted files',
    unlisted.length === 0,
    'every file in the kit is covered by the manifest',
    `expected only files the manifest lists, got ${unlisted.join(', ')}`,
  );
  return { contents, ...(entriesSha256 === undefined ? {} : { entriesSha256 }) };
}

function kitTrust(report: ReportBuilder, options: AuditKitOptions, trustBytes: Uint8Array | undefined) {
  if (options.trust) {
    report.pass('trust anchor', `the given trust file (${options.trust.keys().length} keys)`);
    return options.trust;
  }
  if (!trustBytes) {
    report.fail('trust anchor', 'no trust file given and the kit has no verified trust.json');
    return undefined;
  }
  try {
    const store = TrustStore.fromDocument(readJson(trustBytes, { what: 'kit trust.json' }), 'kit trust.json');
    const what = `the kit's own trust.json (${store.keys().length} keys) — self-asserted: it shows the kit is self-consistent, not who signed it`;
    if (options.selfAssertedTrust === true) report.pass('trust anchor', what);
    else {
      report.fail(
        'trust anchor',
        `expected --trust with keys obtained independently of the kit (GET /api/v1/keys), got only ${what}: ` +
          'a kit forged whole and signed with keys of its own would pass every other check. Pass --trust, or ' +
          '--self-asserted-trust to check self-consistency only',
      );
    }
    return store;
  } catch (err) {
    if (!(err instanceof InvalidInputError)) throw err;
    report.fail('trust anchor', err.message);
    return undefined;
  }
}

/** The first problems and how many more there were (`uncounted`: problems found but not kept). */
function summarize(problems: string[], uncounted = 0): string {
  const shown = problems.slice(0, 5).join('; ');
  const more = problems.length - Math.min(problems.length, 5) + uncounted;
  return more > 0 ? `${shown}; and ${more} more` : shown;
}

function checkLog(
  report: ReportBuilder,
  manifest: AuditKitManifest,
  cp: Checkpoint,
  parsed: KitEntries,
): void {
  report.check(
    'checkpoint matches manifest',
    cp.origin === manifest.origin && cp.size === manifest.treeSize,
    `the checkpoint is of ${JSON.stringify(cp.origin)} at size ${cp.size}, as the manifest says`,
    `expected origin ${JSON.stringify(manifest.origin)} and size ${manifest.treeSize} (manifest), got ` +
      `${describeCheckpoint(cp)}`,
  );
  const count = parsed.leafHashes.length;
  report.check(
    'entries',
    parsed.problemCount === 0 && count === cp.size && !parsed.truncated,
    count === 0
      ? 'no entries: the log is empty'
      : `${count} entries, each canonical JCS, indexes 0..${count - 1}`,
    summarize(
      [
        ...(count === cp.size && !parsed.truncated
          ? []
          : [`expected ${cp.size} lines (the checkpoint size), got ${parsed.truncated ? 'more' : count}`]),
        ...parsed.problems,
      ],
      parsed.problemCount - parsed.problems.length,
    ),
  );
  const root = MerkleTree.fromLeafHashes(parsed.leafHashes).rootHash();
  report.check(
    'Merkle root',
    count === cp.size && Buffer.from(root).equals(Buffer.from(cp.rootHash)),
    `the RFC 6962 root of the ${count} entries equals the checkpoint root`,
    `expected the root of the entries to be the checkpoint root ${Buffer.from(cp.rootHash).toString('base64')}, ` +
      `got ${Buffer.from(root).toString('base64')} over ${count} entries`,
  );
}

/** `pentagate verify kit DIR`: an offline audit kit, end to end. */
export async function verifyAuditKit(
  dir: string,
  options: AuditKitOptions = {},
): Promise<VerificationReport> {
  const info = await lstat(dir).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new InvalidInputError(`audit kit ${dir}: expected a directory, got ${info ? 'a file' : 'nothing'}`);
  }
  const manifest = validate(
    AuditKitManifestSchema,
    await readInputJson(join(dir, KIT_FILES.manifest), 'audit kit manifest'),
    'audit kit manifest',
  );
  const report = new ReportBuilder(`audit kit of ${manifest.origin} at size ${manifest.treeSize}`);
  const { contents: files, entriesSha256 } = await checkFileDigests(report, dir, manifest);
  const trust = kitTrust(report, options, files.get(KIT_FILES.trust));
  const noteBytes = files.get(KIT_FILES.checkpoint);
  let cp: SignedCheckpoint | undefined;
  if (trust && noteBytes) {
    try {
      cp = checkCheckpointSignature(report, decodeUtf8(noteBytes, 'checkpoint.note'), trust, options);
    } catch (err) {
      if (!(err instanceof InvalidInputError)) throw err;
      report.fail('checkpoint signature', err.message);
    }
  }
  if (cp && entriesSha256 !== undefined) {
    const retirement = trust ? new KeyRetirementCheck(cp, trust) : undefined;
    const envelopes = trust ? new EntryEnvelopesCheck(trust) : undefined;
    const robots = new RobotHistoriesCheck();
    const consents = new ConsentGrantsCheck();
    const parsed = await readKitEntries(join(dir, KIT_FILES.entries), cp.size + 1, (entry) => {
      retirement?.add(entry);
      envelopes?.add(entry);
      robots.add(entry);
      consents.add(entry);
    });
    if (parsed.sha256 !== entriesSha256) {
      parsed.problems.unshift(
        'the file changed while it was verified (its digest differs from the one checked)',
      );
      parsed.problemCount++;
    }
    checkLog(report, manifest, cp, parsed);
    retirement?.finish(report);
    envelopes?.finish(report);
    robots.finish(report);
    consents.finish(report);
  }
  return report.finish(options.atMs);
}
