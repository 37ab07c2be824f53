/**
 * The texts the injection screen's fast paths are checked on against their references: every corpus row
 * (attacks and benign, tuned and held out) and rows generated from the template bank (their disguises
 * include look-alike letters and encodings).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateRows, readBank } from '../../src/pentagon/tiers/injection/training/index.js';

export const corpusTexts: readonly string[] = [
  'attacks',
  'benign',
  'heldout-attacks',
  'heldout-benign',
].flatMap((name) =>
  readFileSync(fileURLToPath(new URL(`../../corpus/injection/${name}.jsonl`, import.meta.url)), 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { text: string }).text),
);

/** `variantsPerTemplate` rows per template of the bank. */
export function generatedRowTexts(variantsPerTemplate: number): string[] {
  return generateRows(readBank(fileURLToPath(new URL('../../corpus/injection/bank/', import.meta.url))), {
    variantsPerTemplate,
  }).map((r) => r.text);
}
