// The registry of `pentagate` subcommands: each package contributes its own from its `./commands`
// entry point. The root bin dispatches over it; the CLI tests walk it.
export const contributors = [
  '@pentagate/protocol/commands',
  '@pentagate/crypto/commands',
  '@pentagate/verifier/commands',
  '@pentagate/edge/commands',
  '@pentagate/cloud/commands',
  '@pentagate/simulator/commands',
];

/**
 * The package whose commands start with each first word. Loading every package's module graph is most of a
 * command's start, so `pentagate cloud tenant create …` loads only the cloud's commands; anything else
 * (`--help`, `--version`, a mistyped word) loads them all. scripts/test/cli-first-words.test.ts keeps this in
 * step with what the packages contribute.
 */
export const contributorByFirstWord = new Map([
  ['keys', '@pentagate/crypto/commands'],
  ['verify', '@pentagate/verifier/commands'],
  ['edge', '@pentagate/edge/commands'],
  ['firmware', '@pentagate/edge/commands'],
  ['calib', '@pentagate/edge/commands'],
  ['consent', '@pentagate/edge/commands'],
  ['cloud', '@pentagate/cloud/commands'],
  ['demo', '@pentagate/simulator/commands'],
  ['sim', '@pentagate/simulator/commands'],
]);

/**
 * The subcommands `argv` can name: those under its first word, or every subcommand of every package when it
 * starts with anything else (or is not given). Throws ERR_MODULE_NOT_FOUND when the packages are not built.
 */
export async function loadCommands(argv = []) {
  const only = contributorByFirstWord.get(argv[0]);
  const modules = only === undefined ? contributors : [only];
  return (await Promise.all(modules.map((m) => import(m)))).flatMap((m) => m.commands);
}
