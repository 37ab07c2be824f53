#!/usr/bin/env node
// The root `pentagate` command: gathers the subcommands each package contributes (commands.js) and
// dispatches. Packages must be built first (`npm run build`).
import { readFileSync } from 'node:fs';
import { loadCommands } from './commands.js';

// @pentagate/protocol is imported here, not statically: unbuilt, it is the first module that is missing
let commands;
let protocol;
try {
  protocol = await import('@pentagate/protocol');
  commands = await loadCommands(process.argv.slice(2));
} catch (err) {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND') {
    process.stderr.write(
      `pentagate: the packages are not built (${err.message}).\nRun \`npm run build\` first.\n`,
    );
    process.exit(2);
  }
  throw err;
}
// A reader that goes away (`pentagate … | head`, or `| tee log` ended by the same Ctrl-C) makes every later
// write fail with EPIPE. A short command has nothing left to say: it ends quietly, without a stack trace.
// A long-running one (cloud serve, edge run, demo) takes it as a stop request and finishes its stop
// (final STOP, audit shipped, store closed, temporary keys removed) with nobody reading.
const onOutputError = (err) => {
  if (err.code !== 'EPIPE') throw err;
  if (!protocol.stopForClosedOutput()) process.exit(process.exitCode ?? 0);
};
process.stdout.on('error', onOutputError);
process.stderr.on('error', onOutputError);
// `pentagate --version` prints the version of the checkout or package this command belongs to.
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
process.exitCode = await protocol.runCli(process.argv.slice(2), commands, protocol.processIo, { version });
