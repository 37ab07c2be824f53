#!/usr/bin/env node
/**
 * False positives of the whole injection screen (rules and classifier, default settings) on
 * `cloud/corpus/injection/hard-benign-heldout.jsonl`: hard benign text never trained or tuned on (SOURCES.md).
 * Prints the rate overall and per category, and every flagged row.
 *
 *   npm run build && node cloud/scripts/injection-hard-benign.mjs
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cloud = new URL('../', import.meta.url);
const injection = await import(new URL('dist/pentagon/tiers/injection/index.js', cloud).href);

/** The policy default (cloud/src/policy/policy-schema.ts); the classifier keeps its shipped threshold. */
const SETTINGS = { threshold: 0.5, extraPatterns: [] };

const rows = readFileSync(fileURLToPath(new URL('corpus/injection/hard-benign-heldout.jsonl', cloud)), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line));

const byCategory = new Map();
let flagged = 0;
for (const row of rows) {
  const screen = injection.screenTexts([{ path: '/arguments/text', value: row.text }], SETTINGS);
  const c = byCategory.get(row.category) ?? { rows: 0, flagged: 0 };
  c.rows++;
  if (screen.flagged) {
    c.flagged++;
    flagged++;
    console.log(
      `FLAGGED ${row.id} ${row.category}/${row.lang} ${screen.stage} ${screen.score.toFixed(3)} ` +
        `(classifier ${screen.classifierScore?.toFixed(3) ?? '-'}): ${JSON.stringify(row.text.slice(0, 90))}`,
    );
  }
  byCategory.set(row.category, c);
}
for (const [category, c] of [...byCategory].sort()) console.log(`${category}: ${c.flagged}/${c.rows}`);
console.log(`false positives: ${flagged}/${rows.length} = ${((100 * flagged) / rows.length).toFixed(1)} %`);
