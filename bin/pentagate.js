#!/usr/bin/env node
// The root `pentagate` command: gathers the subcommands each package contributes (commands.js) and
// dispatches. Packages must be built first (`npm run build`).
import { readFileSync } from 'node:fs';
import { runCli, processIo } from '@pentagate/protocol';
import { loadCommands } from './commands.js';

let commands;
try {
  commands = await loadCommands();
} catch (err) {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND') {
    process.stderr.write(
      `pentagate: the packages are not built (${err.message}).\nRun \`npm run build\` first.\n`,
    );
    process.exit(2);
  }
  throw err;
}
// `pentagate … | head` closes the pipe early: the reader has what it wanted, so stop quietly instead of
// dying of an unhandled EPIPE with a stack trace.
process.stdout.on('error', (err) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(process.exitCode ?? 0);
});
// `pentagate --version` prints the version of the checkout or package this command belongs to.
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
process.exitCode = await runCli(process.argv.slice(2), commands, processIo, { version });
