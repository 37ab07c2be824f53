/**
 * Every command says why a file the user named could not be read in the same words: the errno's meaning
 * and its code, never Node's raw "ENOENT: no such file or directory, open '…'" or a bare "ENOENT".
 */
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cannotRead } from '@pentagate/protocol';
import t from 'tap';

async function failureOf(path: string): Promise<unknown> {
  return readFile(path).then(
    () => undefined,
    (err: unknown) => err,
  );
}

t.test('a missing file and a directory are named with what is wrong, in words', async (t) => {
  const missing = join(t.testdir(), 'nope.yaml');
  t.equal(
    cannotRead(missing, await failureOf(missing)),
    `cannot read ${missing}: no such file or directory (ENOENT)`,
  );
  t.equal(
    cannotRead(tmpdir(), await failureOf(tmpdir())),
    `cannot read ${tmpdir()}: is a directory, expected a file (EISDIR)`,
  );
});

t.test('an error without a known code keeps its own message, on one line', async (t) => {
  t.equal(
    cannotRead('p.json', new Error('expected at most 10 bytes,\ngot 12')),
    'cannot read p.json: expected at most 10 bytes, got 12',
  );
});
