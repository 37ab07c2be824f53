import type { Command } from '@pentagate/protocol';
import { demoCommand } from './cli/demo-command.js';
import { simCellCommand } from './cli/cell-command.js';
import { simListCommand, simRunCommand } from './cli/sim-commands.js';

/** The `pentagate` subcommands this package contributes. */
export const commands: Command[] = [demoCommand, simRunCommand, simListCommand, simCellCommand];
