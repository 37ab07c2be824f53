import type { Command } from '@pentagate/protocol';
import { edgeCommands } from './cli/edge-commands.js';
import { logCommands } from './cli/log-commands.js';

/** The `pentagate verify …` subcommands this package contributes. */
export const commands: Command[] = [...logCommands, ...edgeCommands];
