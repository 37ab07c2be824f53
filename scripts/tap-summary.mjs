#!/usr/bin/env node
// Counts leaf test points across tap's saved results (.tap/test-results) and prints the one
// plain closing line CI reads: "N passed, N failed". A test file that failed with no failing leaf
// (crashed before planning, killed at its timeout) counts as one failure, so a broken file can never
// disappear from the count.
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
const unfinished = [];
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  let leafFailures = 0;
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
      if (res.skip || res.todo) skipped++;
      else if (res.ok) passed++;
      else {
        failed++;
        leafFailures++;
      }
    });
  };
  const parser = new Parser();
  visit(parser);
  parser.end(text);
  const final = parser.results ?? {};
  // A file that failed without a failing leaf (crashed before planning, or killed at its timeout
  // after every point so far passed) is one failure: tap's own summary counts it, so must this line.
  // A file that ran to its end closes with tap's top-level "# time=" line; one killed by the runner
  // (SIGKILL when it did not answer the timeout) stops before it, whatever it had printed.
  const finished = /^# time=/m.test(text.split('\n').slice(-3).join('\n'));
  if ((final.ok === false || !finished) && leafFailures === 0) {
    failed++;
    unfinished.push(file);
  }
}
// The runner's own verdict is the last word: a non-zero tap exit with no failure found above (a
// file whose results were never saved) still cannot end in "0 failed".
const tapExit = Number(process.env.TAP_EXIT_CODE ?? '0');
if (tapExit !== 0 && failed === 0) {
  failed = 1;
  console.log(`tap exited ${tapExit} with no failing test point in ${root}: counted as one failure`);
}
for (const file of unfinished)
  console.log(`failed without a failing test point (crashed or killed): ${file}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
