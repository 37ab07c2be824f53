// The registry the root bin dispatches over, loaded the same way for the tests that walk it.
import { join } from 'node:path';
import type { Command } from '@pentagate/protocol';
// @ts-expect-error: bin/ is plain JavaScript without type declarations
import { loadCommands } from '../../bin/commands.js';

export const repoRoot = join(import.meta.dirname, '..', '..');
export const cliCommands: Command[] = await loadCommands();
