/**
 * A written `sim cell` (its files in a test directory) and its edge started from the line the cell prints,
 * with one more broker account of the edge's role (the watcher) to see what the edge would receive. Shared
 * by the tests of the cell's broker accounts.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '@pentagate/protocol';
import type { Test } from 'tap';
import { commands } from '../../src/commands.js';
import { freePort } from '../../src/runner/robot-cell.js';
import { startEdgeChild } from './edge-cli.js';

export const CELL_ROBOT = 'ur5e-01';

export interface WrittenCell {
  dir: string;
  cell: string;
  port: number;
  /** What `sim cell` printed (the edge's command line) and wrote on stderr. */
  out: string;
  err: string;
  code: number;
  usersPath: string;
}

/** Runs `sim cell --out <dir>/cell` on a free port. */
export async function writeSimCell(t: Test): Promise<WrittenCell> {
  const dir = t.testdir();
  const cell = join(dir, 'cell');
  const port = await freePort();
  let err = '';
  let out = '';
  const code = await runCli(['sim', 'cell', '--out', cell, '--mqtt-port', String(port)], commands, {
    out: (s) => (out += s),
    err: (s) => (err += s),
  });
  return { dir, cell, port, out, err, code, usersPath: join(cell, 'broker', 'users.json') };
}

/** The watcher: an account with the edge's role, added to the cell's users. */
export const WATCHER = { username: `tap-watch-${CELL_ROBOT}`, password: 'tap-watch-password' };

/**
 * The edge's command line as the cell printed it, with the cell's users file swapped for one that also holds
 * the watcher.
 */
export async function edgeArgvWithWatcher(written: WrittenCell): Promise<string[]> {
  const users = JSON.parse(await readFile(written.usersPath, 'utf8')) as object[];
  const withWatcher = join(written.dir, 'users-with-watcher.json');
  await writeFile(
    withWatcher,
    JSON.stringify([...users, { ...WATCHER, role: 'edge', robotId: CELL_ROBOT }]),
    {
      mode: 0o600,
    },
  );
  return written.out
    .trim()
    .split(' ')
    .slice(2)
    .map((a) => (a === written.usersPath ? withWatcher : a));
}

/** Starts the cell's edge (with the watcher) and returns it. */
export async function startCellEdge(t: Test, argv: string[]) {
  return startEdgeChild(t, argv, CELL_ROBOT);
}

/** The password the cell wrote for `user`. */
export async function cellPassword(cell: string, user: string): Promise<string> {
  return (await readFile(join(cell, 'broker', `${user}.password`), 'utf8')).trim();
}
