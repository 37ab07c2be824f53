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
