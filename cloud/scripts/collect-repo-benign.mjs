#!/usr/bin/env node
/**
 * Writes cloud/corpus/injection/repo-benign.jsonl: ordinary technical text taken from Pentagate's own
 * tracked files (string literals, comment blocks, Markdown paragraphs), as benign rows for the injection
 * classifier — code, log formats, error messages and documentation that an agent's tool calls carry
 * every day. Files about injection itself (the screen, its corpus and tests) are skipped, and so is any
 * text the rules already flag. Each row keeps its file: the training split holds out whole files.
 * Run from the repository root: `node cloud/scripts/collect-repo-benign.mjs` (then commit the output).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const SKIP = /injection|golden-verdicts|corpus\/|package-lock|\.jsonl$|fixtures\/.*\.json$/i;
const MIN_CHARS = 12;
const MAX_CHARS = 1000;
const MAX_PER_FILE = 60;

const rules = await import(new URL('../dist/pentagon/tiers/injection/index.js', import.meta.url).href);
const rulesFlag = (text) =>
  rules.screenTexts([{ path: '/x', value: text }], {
    threshold: 0.5,
    extraPatterns: [],
    classifier: { enabled: false },
  }).flagged;

const files = execFileSync('git', ['ls-files', '*.ts', '*.mjs', '*.md', '*.yaml'], { encoding: 'utf8' })
  .trim()
  .split('\n')
  .filter((f) => !SKIP.test(f))
  .sort();

function textsOf(file, source) {
  const out = [];
  if (file.endsWith('.md')) {
    for (const para of source.split(/\n\s*\n/)) out.push(para.replace(/\s+/g, ' ').trim());
    return out;
  }
  for (const m of source.matchAll(/'([^'\\\n]+)'|"([^"\\\n]+)"|`([^`\\]+)`/g)) out.push(m[1] ?? m[2] ?? m[3]);
  for (const m of source.matchAll(/\/\*\*?([\s\S]*?)\*\//g))
    out.push(
      m[1]
        .replace(/^\s*\* ?/gm, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    );
  for (const m of source.matchAll(/(?:^\s*\/\/.*\n?)+/gm))
    out.push(
      m[0]
        .replace(/^\s*\/\/ ?/gm, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    );
  return out;
}

const seen = new Set();
const rows = [];
for (const file of files) {
  let kept = 0;
  for (const raw of textsOf(file, readFileSync(file, 'utf8'))) {
    const text = raw.slice(0, MAX_CHARS);
    if (text.length < MIN_CHARS || seen.has(text) || kept >= MAX_PER_FILE || rulesFlag(text)) continue;
    seen.add(text);
    kept++;
    rows.push({
      id: `repo-${rows.length + 1}`,
      label: 'benign',
      category: 'repository-text',
      lang: 'en',
      file,
      text,
    });
  }
}
writeFileSync(
  'cloud/corpus/injection/repo-benign.jsonl',
  `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`,
);
console.error(`${rows.length} rows from ${files.length} files`);
