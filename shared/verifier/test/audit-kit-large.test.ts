/**
 * A kit's entries.jsonl is read as a stream (kit-entries.ts), so a log past 128 MiB — the old cap, which a
 * flood of robot vetoes reached in under a minute and every kit exported afterwards failed for every tenant
 * (outside review) — verifies like a small one; a line changed anywhere in it still fails.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MerkleTree, TrustStore, signCheckpoint } from '@pentagate/crypto';
import { type AuditEntry, canonicalize, utf8Bytes } from '@pentagate/protocol';
import t from 'tap';
import { verifyAuditKit } from '../src/index.js';
import {
  ORIGIN,
  T0_MS,
  iso,
  noteSigner,
  tempDir,
  trustDocument,
  writeManifest,
} from './fixtures/artifacts.js';

const ENTRIES = 8_800;
const PADDING = 'x'.repeat(16_000); // ~16 KB an entry: 8,800 entries are ~141 MB

async function writeLargeKit(parent: string): Promise<{ dir: string; bytes: number }> {
  const dir = join(parent, 'kit');
  await mkdir(dir);
  const tree = new MerkleTree();
  const out = createWriteStream(join(dir, 'entries.jsonl'));
  const hash = createHash('sha256');
  for (let index = 0; index < ENTRIES; index++) {
    const entry: AuditEntry = {
      v: 1,
      index,
      type: 'agent.registered',
      at: iso(T0_MS + index),
      tenantId: 'tenant-a',
      data: { agentId: `agent-${index}`, note: PADDING },
    };
    const line = canonicalize(entry);
    tree.append(utf8Bytes(line));
    hash.update(`${line}\n`);
    if (!out.write(`${line}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
  const note = signCheckpoint(
    { origin: ORIGIN, size: ENTRIES, rootHash: tree.rootHash(ENTRIES) },
    noteSigner,
  );
  const files = {
    'checkpoint.note': note,
    'trust.json': `${JSON.stringify(trustDocument(), null, 2)}\n`,
  };
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  // the manifest's digest of entries.jsonl, from the bytes written (writeManifest hashes what it is given)
  await writeManifest(dir, { ...files, 'entries.jsonl': '' }, ENTRIES);
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  manifest.files['entries.jsonl'] = hash.digest('hex');
  await writeFile(join(dir, 'manifest.json'), canonicalize(manifest));
  return { dir, bytes: (await stat(join(dir, 'entries.jsonl'))).size };
}

t.test('a kit whose entries.jsonl is past 128 MiB verifies, and a changed line in it fails', async (t) => {
  const { dir, bytes } = await writeLargeKit(await tempDir(t));
  t.ok(bytes > 128 * 1024 * 1024, `entries.jsonl is ${bytes} bytes`);
  const trust = TrustStore.fromDocument(trustDocument());
  const report = await verifyAuditKit(dir, { trust });
  t.equal(report.valid, true, report.failures.join('\n'));
  t.match(report.checks.find((c) => c.name === 'entries')?.detail, `${ENTRIES} entries`);

  // one byte of one line in the middle, changed in place: the digest and the root both fail
  const file = await open(join(dir, 'entries.jsonl'), 'r+');
  const at = Math.floor(bytes / 2);
  const [byte] = (await file.read(Buffer.alloc(1), 0, 1, at)).buffer;
  await file.write(Buffer.from([byte === 0x78 ? 0x79 : 0x78]), 0, 1, at);
  await file.close();
  const tampered = await verifyAuditKit(dir, { trust });
  t.equal(tampered.valid, false);
  t.match(tampered.failures.join('\n'), /digest of entries\.jsonl/);
});
