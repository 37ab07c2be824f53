#!/usr/bin/env node
// `npm test` after the build: the whole tap suite, the coverage gate, and the one closing line
// "N passed, N failed" (tap-summary.mjs). Exits non-zero when any of the three fails; each runs even
// when an earlier one failed, so the closing line is always the last thing printed.
import { spawnSync } from 'node:child_process';

const run = (command, args, env = process.env) =>
  spawnSync(command, args, { stdio: 'inherit', env }).status ?? 1;

const tapBin = new URL('../node_modules/.bin/tap', import.meta.url).pathname;
const tap = run(tapBin, process.argv.slice(2), { ...process.env, TS_NODE_PROJECT: 'tsconfig.tap.json' });
const gate = run(process.execPath, ['scripts/coverage-gate.mjs']);
const summary = run(process.execPath, ['scripts/tap-summary.mjs'], {
  ...process.env,
  TAP_EXIT_CODE: String(tap),
});
process.exit(tap !== 0 || gate !== 0 || summary !== 0 ? 1 : 0);
