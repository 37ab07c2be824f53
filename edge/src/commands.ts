import type { Command } from '@pentagate/protocol';

/** The `pentagate` subcommands this package contributes. */
export const commands: Command[] = [];

// The runtime API rides on this entry point until the package index re-exports ./runtime.js.
export * from './runtime.js';
