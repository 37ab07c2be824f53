// The registry of `pentagate` subcommands: each package contributes its own from its `./commands`
// entry point. The root bin dispatches over it; the CLI tests walk it.
const contributors = [
  '@pentagate/protocol/commands',
  '@pentagate/crypto/commands',
  '@pentagate/verifier/commands',
  '@pentagate/edge/commands',
  '@pentagate/cloud/commands',
  '@pentagate/simulator/commands',
];

/** Every subcommand of every package. Throws ERR_MODULE_NOT_FOUND when the packages are not built. */
export async function loadCommands() {
  return (await Promise.all(contributors.map((m) => import(m)))).flatMap((m) => m.commands);
}
