import type { Command } from '@pentagate/protocol';

/** The `pentagate` subcommands this package contributes. */
export const commands: Command[] = [];
