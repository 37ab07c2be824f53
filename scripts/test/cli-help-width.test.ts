// Every command's --help text is written wrapped: a description line longer than a wide terminal
// breaks mid-word there, and the option the reader is looking for is lost in the wrapped mess.
import t from 'tap';
import { cliCommands } from './cli-registry.js';

const maxColumns = 120;

t.test(`every command's description is wrapped at ${maxColumns} columns`, async (t) => {
  for (const command of cliCommands) {
    const long = (command.description ?? '').split('\n').filter((line) => line.length > maxColumns);
    t.same(long, [], `pentagate ${command.path.join(' ')}`);
  }
});
