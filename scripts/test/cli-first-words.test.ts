// The root bin loads only the package whose commands start with the first word it is given
// (bin/commands.js): the map from first words to packages must name, for every command every package
// contributes, the package it comes from, or that command would be unreachable from its own first word.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Command } from '@pentagate/protocol';
import t from 'tap';
// @ts-expect-error: bin/ is plain JavaScript without type declarations
import { contributorByFirstWord, contributors, loadCommands } from '../../bin/commands.js';
import { cliCommands, repoRoot } from './cli-registry.js';

const byWord = contributorByFirstWord as Map<string, string>;
const load = loadCommands as (argv?: string[]) => Promise<Command[]>;

t.test('every command is reached from its first word through the package that contributes it', async (t) => {
  let reached = 0;
  for (const contributor of contributors as string[]) {
    const { commands } = (await import(contributor)) as { commands: Command[] };
    for (const c of commands) {
      t.equal(byWord.get(c.path[0]!), contributor, `pentagate ${c.path.join(' ')} → ${contributor}`);
      reached++;
    }
  }
  t.equal(reached, cliCommands.length, 'every command of the whole registry was looked at');
  t.ok(reached > 30, `${reached} commands`);
  for (const [word, contributor] of byWord) {
    t.ok(
      cliCommands.some((c) => c.path[0] === word),
      `the first word ${word} (${contributor}) starts some command`,
    );
  }
});

t.test('a known first word loads its package only; anything else loads every command', async (t) => {
  const cloud = await load(['cloud', 'tenant', 'create', 'x']);
  t.ok(cloud.length > 5);
  t.ok(
    cloud.every((c) => c.path[0] === 'cloud'),
    'only the cloud commands',
  );
  for (const argv of [[], ['--help'], ['--version'], ['clod'], ['constructor'], ['__proto__']]) {
    t.equal((await load(argv)).length, cliCommands.length, `${JSON.stringify(argv)}: every command`);
  }
});

t.test('through the real bin: a mistyped word is still answered with the right command', async (t) => {
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'pentagate.js'), 'clod', 'tenant'], {
    encoding: 'utf8',
  });
  t.equal(r.status, 2);
  t.match(r.stderr, /unknown command 'clod'\. Did you mean 'cloud tenant'\?/);
  const help = spawnSync(process.execPath, [join(repoRoot, 'bin', 'pentagate.js'), 'cloud', '--help'], {
    encoding: 'utf8',
  });
  t.equal(help.status, 0);
  t.match(help.stdout, /cloud tenant create/);
});
