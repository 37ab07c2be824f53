/**
 * The generated corpus: every template of the banks expanded into variants (seeded per template and
 * variant, so a new template never changes the others' rows), some carried inside emails, web pages,
 * JSON, tool output, documents or code, some disguised. Split by TEMPLATE: every third pattern of each
 * (language, label, family) — the second, fifth, … — is held out, so held-out rows share no sentence
 * structure with training rows; only the slot vocabulary (actions, amounts, addresses) is shared.
 * The hand-written rows of `attacks.jsonl`/`benign.jsonl` join training, `heldout-*.jsonl` the held-out set;
 * `repo-benign.jsonl` (the repository's own text) is split by file; `public/*.jsonl` (text of other
 * authors) by a hash of each row's group (public.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Bank,
  expand,
  type Label,
  pick,
  readBank,
  seededRandom,
  stringSeed,
  type Template,
} from './bank.js';
import { BENIGN_DISGUISES, DISGUISES, type Disguise, disguise } from './disguises.js';
import { publicRows } from './public.js';

/**
 * `unused`: rows of a source that is measured but never trained on (public.ts), outside its held-out part;
 * neither trained on nor counted in the held-out figures.
 */
export type Split = 'train' | 'heldout' | 'unused';

export interface CorpusRow {
  id: string;
  label: Label;
  lang: string;
  family: string;
  template: string;
  split: Split;
  carrier?: string;
  disguise?: Disguise;
  /** Public rows: the source (file) they came from; generated and hand-written rows have none. */
  source?: string;
  text: string;
}

export interface GenerateOptions {
  /** Variants expanded per template (default 24). */
  variantsPerTemplate?: number;
  /** Share of rows carried inside a document (default 0.3). */
  carriedShare?: number;
  /** Share of attack rows disguised (default 0.2); benign rows get a quarter of it. */
  disguisedShare?: number;
}

export function templateSplit(t: Template): Split {
  return t.indexInFamily % 3 === 1 ? 'heldout' : 'train';
}

/** Share of carried rows whose surrounding text is in another language than the payload. */
const FOREIGN_FILLER_SHARE = 0.35;

function carry(
  payload: string,
  bank: Bank,
  lang: string,
  random: () => number,
): { carrier: string; text: string } {
  const carrier = pick(Object.keys(bank.carriers).sort(), random);
  const pattern = pick(bank.carriers[carrier]!, random);
  const fillerLang = random() < FOREIGN_FILLER_SHARE ? pick(bank.languages, random) : lang;
  // {PAYLOAD} is inserted after expansion so that its own braces are never read as pattern syntax.
  const marker = '\u0000PAYLOAD\u0000';
  const slots = { ...bank.slots[fillerLang], PAYLOAD: [marker] };
  const withSlots = { ...bank, slots: { ...bank.slots, [fillerLang]: slots } };
  return { carrier, text: expand(pattern, withSlots, fillerLang, random).replace(marker, payload) };
}

export function generateRows(bank: Bank, options: GenerateOptions = {}): CorpusRow[] {
  const variants = options.variantsPerTemplate ?? 24;
  const carriedShare = options.carriedShare ?? 0.3;
  const disguisedShare = options.disguisedShare ?? 0.2;
  const rows: CorpusRow[] = [];
  const seen = new Set<string>();
  for (const t of bank.templates) {
    for (let k = 0; k < variants; k++) {
      const random = seededRandom(stringSeed(`${t.id}~${k}`));
      const attack = t.label === 'attack';
      let text = expand(t.pattern, bank, t.lang, random);
      const row: CorpusRow = {
        id: `${t.id}~${k}`,
        label: t.label,
        lang: t.lang,
        family: t.family,
        template: t.id,
        split: templateSplit(t),
        text,
      };
      if (random() < (attack ? disguisedShare : disguisedShare / 4)) {
        row.disguise = pick(attack ? DISGUISES : BENIGN_DISGUISES, random);
        text = disguise(text, row.disguise, attack, random);
      }
      if (random() < carriedShare) {
        const carried = carry(text, bank, t.lang, random);
        row.carrier = carried.carrier;
        text = carried.text;
      }
      row.text = text;
      if (seen.has(text)) continue;
      seen.add(text);
      rows.push(row);
    }
  }
  return rows;
}

interface JsonlRow {
  id: string;
  label: Label;
  category: string;
  lang: string;
  text: string;
  /** repo-benign.jsonl: the repository file the text came from. */
  file?: string;
}

function jsonlRows(dir: string, file: string): JsonlRow[] {
  return readFileSync(join(dir, file), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as JsonlRow);
}

function handWritten(dir: string, file: string, split: Split): CorpusRow[] {
  return jsonlRows(dir, file).map((r) => ({
    id: r.id,
    label: r.label,
    lang: r.lang,
    family: `hand-${r.category}`,
    template: `hand/${r.id}`,
    split,
    text: r.text,
  }));
}

/** Text from the repository's own files; held out by FILE (a third of the files), like templates. */
function repositoryText(dir: string): CorpusRow[] {
  return jsonlRows(dir, 'repo-benign.jsonl').map((r) => ({
    id: r.id,
    label: 'benign',
    lang: r.lang,
    family: 'repository-text',
    template: `repo/${r.file}`,
    split: stringSeed(r.file ?? r.id) % 3 === 1 ? 'heldout' : 'train',
    text: r.text,
  }));
}

/**
 * Where a row came from, for per-source figures: the public source, `repository` (the repository's own
 * text) or `synthetic` (the banks and the hand-written files).
 */
export function sourceOf(row: CorpusRow): string {
  return row.source ?? (row.family === 'repository-text' ? 'repository' : 'synthetic');
}

/**
 * The whole corpus of `cloud/corpus/injection`: generated rows, the hand-written files, the repository's
 * own text and the public text of other authors (`public/`, see public.ts).
 */
export function corpusRows(corpusDir: string, options: GenerateOptions = {}): CorpusRow[] {
  return [
    ...generateRows(readBank(join(corpusDir, 'bank')), options),
    ...handWritten(corpusDir, 'attacks.jsonl', 'train'),
    ...handWritten(corpusDir, 'benign.jsonl', 'train'),
    ...handWritten(corpusDir, 'heldout-attacks.jsonl', 'heldout'),
    ...handWritten(corpusDir, 'heldout-benign.jsonl', 'heldout'),
    ...repositoryText(corpusDir),
    ...publicRows(corpusDir),
  ];
}
