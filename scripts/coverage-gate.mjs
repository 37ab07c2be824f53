#!/usr/bin/env node
// The coverage gate: tap's own gate is all-or-nothing (100%), so the suite runs with
// allow-incomplete-coverage and this script holds the line at a floor we can defend.
import { readFileSync } from 'node:fs';

const floors = { lines: 90, statements: 90, functions: 85, branches: 80 };
const summaryPath = '.tap/report/coverage-summary.json';
let total;
try {
  total = JSON.parse(readFileSync(summaryPath, 'utf8')).total;
} catch (err) {
  console.error(`coverage gate: cannot read ${summaryPath} (${err.message}); did tap run with coverage?`);
  process.exit(1);
}
const misses = Object.entries(floors).filter(([k, floor]) => !(Number(total[k]?.pct) >= floor));
for (const [k, floor] of Object.entries(floors)) {
  console.log(`coverage ${k}: ${total[k]?.pct}% (floor ${floor}%)`);
}
if (misses.length > 0) {
  console.error(
    `coverage gate failed: ${misses.map(([k, f]) => `${k} ${total[k]?.pct}% < ${f}%`).join(', ')}`,
  );
  process.exit(1);
}
