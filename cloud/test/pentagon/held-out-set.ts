/**
 * The held-out JSONL sets in `cloud/corpus/injection/` (SOURCES.md) that no template, weight or threshold
 * was chosen on: reading one, screening its rows at the policy's default settings, and proving that none
 * of its rows is in the corpus the classifier is trained and measured on — were one there, its figure would
 * no longer estimate unseen text.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';
import { screenTexts } from '../../src/pentagon/tiers/injection/index.js';
import { textViews } from '../../src/pentagon/tiers/injection/normalise.js';
import { corpusRows } from '../../src/pentagon/tiers/injection/training/index.js';

export interface HeldOutRow {
  id: string;
  lang: string;
  text: string;
}

const corpusDir = fileURLToPath(new URL('../../corpus/injection/', import.meta.url));

export function readHeldOutSet<Row extends HeldOutRow>(fileName: string): Row[] {
  return readFileSync(`${corpusDir}${fileName}`, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Row);
}

/** What a propose does with the text as one argument, at the default threshold and no tenant patterns. */
export function screenFlags(row: HeldOutRow): boolean {
  return screenTexts([{ path: '/arguments/text', value: row.text }], { threshold: 0.5, extraPatterns: [] })
    .flagged;
}

export function assertNoneInCorpus(t: Test, rows: readonly HeldOutRow[]): void {
  const corpus = new Set(
    corpusRows(corpusDir, { variantsPerTemplate: 24 }).map((r) => textViews(r.text).plain),
  );
  t.same(
    rows.filter((r) => corpus.has(textViews(r.text).plain)).map((r) => r.id),
    [],
    'rows found verbatim in the corpus',
  );
}
