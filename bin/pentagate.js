#!/usr/bin/env node
// The root `pentagate` command: gathers the subcommands each package contributes from its
// `./commands` entry point and dispatches. Packages must be built first (`npm run build`).
import { runCli } from '@pentagate/protocol';

const contributors = [
  '@pentagate/protocol/commands',
  '@pentagate/crypto/commands',
  '@pentagate/verifier/commands',
  '@pentagate/edge/commands',
  '@pentagate/cloud/commands',
  '@pentagate/simulator/commands',
];

let commands;
try {
  commands = (await Promise.all(contributors.map((m) => import(m)))).flatMap((m) => m.commands);
} catch (err) {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND') {
    process.stderr.write(
      `pentagate: the packages are not built (${err.message}).\nRun \`npm run build\` first.\n`,
    );
    process.exit(2);
  }
  throw err;
}
process.exitCode = await runCli(process.argv.slice(2), commands);
