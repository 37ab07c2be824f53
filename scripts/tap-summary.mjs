#!/usr/bin/env node
// Counts leaf test points across tap's saved results (.tap/test-results) and prints the one
// plain closing line CI reads: "N passed, N failed". A test file that crashed before
// planning counts as one failure, so a broken file can never disappear from the count.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Parser } from 'tap-parser';

const root = '.tap/test-results';
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (p.endsWith('.tap')) files.push(p);
  }
};
try {
  walk(root);
} catch {
  console.log('0 passed, 1 failed');
  process.exit(1);
}

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  let leaves = 0;
  // A subtest is announced by a 'child' parser and then closed by an assert of its own;
  // that closing point is a summary, not an assertion, so it is skipped here.
  const visit = (parser) => {
    let closingPoints = 0;
    parser.on('child', (child) => {
      closingPoints++;
      visit(child);
    });
    parser.on('assert', (res) => {
      if (closingPoints > 0) {
        closingPoints--;
        return;
      }
      leaves++;
      if (res.skip || res.todo) skipped++;
      else if (res.ok) passed++;
      else failed++;
    });
  };
  const parser = new Parser();
  visit(parser);
  parser.end(text);
  const final = parser.results ?? {};
  if (leaves === 0 && final.ok === false) failed++;
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
