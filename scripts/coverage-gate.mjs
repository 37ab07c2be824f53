#!/usr/bin/env node
// The coverage gate. The floors are tap's own thresholds in package.json ("tap": lines, statements,
// functions, branches), so tap's report and this gate agree; the suite runs with
// allow-incomplete-coverage so that every file's results are kept, and this script decides.
import { readFileSync } from 'node:fs';

const tapConfig = JSON.parse(readFileSync('package.json', 'utf8')).tap;
const floors = Object.fromEntries(
  ['lines', 'statements', 'functions', 'branches'].map((k) => [k, Number(tapConfig[k] ?? 100)]),
);
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
