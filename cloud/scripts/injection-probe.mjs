#!/usr/bin/env node
/**
 * Scores a labelled JSONL file (`label`: attack | benign, `style` or `category`, `lang`, `text`) with the
 * whole injection screen (rules then classifier, default settings) and prints recall and false positives
 * per style, per language and overall, then every miss. For test sets kept apart from training
 * (`cloud/corpus/injection/probe-heldout.jsonl`, SOURCES.md): the trainer never reads them.
 *
 *   npm run build && node cloud/scripts/injection-probe.mjs [file.jsonl] [--json]
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cloud = new URL('../', import.meta.url);
const injection = await import(new URL('dist/pentagon/tiers/injection/index.js', cloud).href);

/** The policy default (cloud/src/policy/policy-schema.ts); the classifier keeps its shipped threshold. */
const SETTINGS = { threshold: 0.5, extraPatterns: [] };

const args = process.argv.slice(2);
const file =
  args.find((a) => !a.startsWith('--')) ??
  fileURLToPath(new URL('corpus/injection/probe-heldout.jsonl', cloud));
const rows = readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line));

const tally = (map, key, flagged) => {
  const t = map.get(key) ?? { rows: 0, flagged: 0 };
  t.rows++;
  if (flagged) t.flagged++;
  map.set(key, t);
};
const groups = { style: new Map(), lang: new Map(), all: new Map() };
const misses = [];
for (const row of rows) {
  const screen = injection.screenTexts([{ path: '/arguments/text', value: row.text }], SETTINGS);
  const style = row.style ?? row.category ?? '-';
  tally(groups.style, `${row.label} ${style}`, screen.flagged);
  tally(groups.lang, `${row.label} ${row.lang ?? '-'}`, screen.flagged);
  tally(groups.all, row.label, screen.flagged);
  const wrong = screen.flagged !== (row.label === 'attack');
  if (wrong)
    misses.push({
      id: row.id,
      stage: screen.stage ?? '-',
      classifier: screen.classifierScore ?? 0,
      text: row.text,
    });
}
const pct = (t) => `${t.flagged}/${t.rows} = ${((100 * t.flagged) / t.rows).toFixed(1)} %`;
if (args.includes('--json')) {
  const plain = (m) => Object.fromEntries([...m].sort());
  console.log(
    JSON.stringify({ style: plain(groups.style), lang: plain(groups.lang), all: plain(groups.all) }, null, 2),
  );
} else {
  console.log('flagged per style (attack: recall; benign: false positives)');
  for (const [k, t] of [...groups.style].sort()) console.log(`  ${k}: ${pct(t)}`);
  console.log('per language');
  for (const [k, t] of [...groups.lang].sort()) console.log(`  ${k}: ${pct(t)}`);
  for (const [k, t] of [...groups.all].sort())
    console.log(`${k === 'attack' ? 'recall' : 'false positives'}: ${pct(t)}`);
  for (const m of misses)
    console.log(
      `WRONG ${m.id} ${m.stage} classifier ${m.classifier.toFixed(3)}: ${JSON.stringify(m.text.slice(0, 100))}`,
    );
}
