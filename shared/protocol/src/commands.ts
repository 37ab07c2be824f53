import type { Command } from './cli/index.js';

/** The `pentagate` subcommands this package contributes. */
export const commands: Command[] = [];
