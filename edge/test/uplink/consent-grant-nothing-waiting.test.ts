/**
 * `pentagate consent grant --cloud` when the move is no longer in the approvals queue (granted by someone
 * else, or past its deadline): the operator is told why that happens and how to see what still waits,
 * against a real HTTP server answering the queue route with an empty queue.
 */
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import t from 'tap';
import { cli } from '../runtime/helpers/run-edge-cli.js';

t.test('a move that no longer waits is answered with what to do next', async (t) => {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ items: [] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const { port } = server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  const keyFile = join(t.testdir(), 'operator.api-key');
  await writeFile(keyFile, 'pgk_x\n', { mode: 0o600 });
  const digest = 'ab'.repeat(32);
  const r = await cli([
    'consent',
    'grant',
    '--cloud',
    url,
    '--cloud-key-file',
    keyFile,
    '--robot',
    'ur5e-01',
    '--intent-digest',
    digest,
    '--key',
    'operator.pem',
    '--operator',
    'alice',
  ]);
  t.equal(r.code, 2);
  t.match(r.err, `no move of robot ur5e-01 with intent digest ${digest} is waiting for consent in ${url}`);
  t.match(r.err, /granted already or past its deadline/, 'says why a move leaves the queue');
  t.match(
    r.err,
    `pentagate consent pending --cloud ${url} --cloud-key-file ${keyFile}`,
    'and names the command that lists what waits',
  );
});
