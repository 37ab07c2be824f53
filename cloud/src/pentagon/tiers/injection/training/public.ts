/**
 * Public text of other authors (`cloud/corpus/injection/public/*.jsonl`, one file per source; sources,
 * licences and how the files were made in cloud/corpus/injection/SOURCES.md). Read from the vendored
 * files, never from the network.
 *
 * Split per source by a stable hash of the row's GROUP (rows that share a prompt prefix, an injected
 * instruction or a document), a third held out, so no near-copy of a held-out row is trained on.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Label, stringSeed } from './bank.js';
import type { CorpusRow, Split } from './generate.js';

export interface PublicRow {
  id: string;
  label: Label;
  category: string;
  lang: string;
  text: string;
  source: string;
  group: string;
}

export const PUBLIC_DIR = 'public';

export function publicSplit(source: string, group: string): Split {
  return stringSeed(`${source}/${group}`) % 3 === 1 ? 'heldout' : 'train';
}

/** The rows of every `public/*.jsonl`, in file-name order. */
export function readPublicRows(corpusDir: string): PublicRow[] {
  const dir = join(corpusDir, PUBLIC_DIR);
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .sort();
  } catch {
    return [];
  }
  return files.flatMap((file) =>
    readFileSync(join(dir, file), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as PublicRow),
  );
}

export function publicRows(corpusDir: string): CorpusRow[] {
  return readPublicRows(corpusDir).map((r) => ({
    id: `public/${r.source}/${r.id}`,
    label: r.label,
    lang: r.lang,
    family: r.category,
    template: `public/${r.source}/${r.group}`,
    split: publicSplit(r.source, r.group),
    source: r.source,
    text: r.text,
  }));
}
