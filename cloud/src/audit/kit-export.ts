/**
 * Writes the offline audit kit (contract "Audit kit"): `entries.jsonl` (one JCS entry per line, each line
 * ending in \n, index order), `checkpoint.note` (a checkpoint of exactly those entries, signed now with the
 * checkpoint key), `trust.json` (the TrustDocument of the log's keys) and `manifest.json` (origin, size,
 * creation time and the SHA-256 of each other file, as JCS). `createdAt` is informative only: nothing signs it. `pentagate verify kit DIR` checks it end to end.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MerkleTree, type NoteSigner, sha256Hex, signCheckpoint } from '@pentagate/crypto';
import { type AuditKitManifest, canonicalize, InvalidInputError, utf8Bytes } from '@pentagate/protocol';
import { trustDocumentOf } from '../keys/trust-document.js';
import { leafHashOfText } from '../store/audit/audit-leaf.js';
import type { Store } from '../store/store.js';

/** Entries read per store query while exporting. */
const EXPORT_BATCH = 5_000;

export interface AuditKitExport {
  dir: string;
  treeSize: number;
  rootHashHex: string;
}

export async function exportAuditKit(
  store: Store,
  outDir: string,
  options: { origin: string; noteSigner: NoteSigner; nowMs?: number },
): Promise<AuditKitExport> {
  await mkdir(outDir, { recursive: true });
  const present = await readdir(outDir);
  if (present.length > 0) {
    throw new InvalidInputError(
      `--out: expected an empty or new directory, got ${outDir} holding ${present.length} file(s)`,
    );
  }
  // Freeze the size first: entries appended during the export belong to the next kit.
  const treeSize = await store.auditSize();
  const tree = MerkleTree.fromLeafHashes([]);
  // Written and hashed batch by batch: a log of any size is exported in bounded memory (held whole, past
  // ~512 MB its text would not fit in one string), as `verify kit` reads it back (kit-entries.ts).
  const entries = createWriteStream(join(outDir, 'entries.jsonl'), { flags: 'wx' });
  const entriesHash = createHash('sha256');
  let written = 0;
  try {
    for (let from = 0; from < treeSize; from += EXPORT_BATCH) {
      let batch = '';
      for (const record of await store.auditEntries(from, Math.min(treeSize, from + EXPORT_BATCH))) {
        // A row changed outside the cloud (the append-only triggers dropped) would give a kit that fails
        // verification with only "the root differs"; the store can name the entry, so the export does.
        if (record.index !== written) {
          throw new InvalidInputError(`audit log: entry ${written} is missing (the next is ${record.index})`);
        }
        const line = canonicalize(record.entry);
        if (!Buffer.from(leafHashOfText(line)).equals(record.leafHash)) {
          throw new InvalidInputError(
            `audit log: entry ${record.index}: its text does not hash to its stored leaf hash`,
          );
        }
        batch += `${line}\n`;
        tree.appendLeafHash(record.leafHash);
        written++;
      }
      entriesHash.update(batch);
      if (!entries.write(batch)) await once(entries, 'drain');
    }
    if (written !== treeSize) {
      throw new InvalidInputError(`audit log: expected ${treeSize} entries, read ${written}`);
    }
  } catch (err) {
    // no half kit: the directory is left as empty as it was found, so the export can be run again into it
    entries.destroy();
    await rm(join(outDir, 'entries.jsonl'), { force: true });
    throw err;
  }
  await new Promise<void>((resolve, reject) =>
    entries.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
  const rootHash = tree.rootHash(treeSize);
  const files: Record<string, Uint8Array> = {
    'checkpoint.note': utf8Bytes(
      signCheckpoint({ origin: options.origin, size: treeSize, rootHash }, options.noteSigner),
    ),
    'trust.json': utf8Bytes(`${JSON.stringify(trustDocumentOf(await store.listSigningKeys()), null, 2)}\n`),
  };
  const manifest: AuditKitManifest = {
    v: 1,
    origin: options.origin,
    treeSize,
    createdAt: new Date(options.nowMs ?? Date.now()).toISOString(),
    files: {
      'entries.jsonl': entriesHash.digest('hex'),
      ...Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, sha256Hex(bytes)])),
    },
  };
  for (const [name, bytes] of Object.entries(files)) await writeFile(join(outDir, name), bytes);
  // JCS without whitespace: every byte of the manifest means something, so a flipped byte is never a no-op
  await writeFile(join(outDir, 'manifest.json'), canonicalize(manifest));
  return { dir: outDir, treeSize, rootHashHex: Buffer.from(rootHash).toString('hex') };
}
