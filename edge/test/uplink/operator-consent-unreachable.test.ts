/**
 * `pentagate consent pending` / `consent grant --cloud` against a cloud that is not there: the operator is
 * told which address refused and why, not Node's bare "fetch failed".
 */
import { createServer } from 'node:net';
import t from 'tap';
import { ConsentCloudError, waitingConsents } from '../../src/uplink/operator-consent.js';

/** A loopback port that was free a moment ago and has no listener now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

t.test('a cloud that refuses the connection is named with the reason', async (t) => {
  const port = await closedPort();
  const url = `http://127.0.0.1:${port}`;
  const err = await waitingConsents({ url, key: 'pgk_x' }).catch((e: unknown) => e);
  t.ok(err instanceof ConsentCloudError, 'a ConsentCloudError');
  t.equal((err as ConsentCloudError).code, 'CLOUD_UNREACHABLE');
  t.match(
    (err as Error).message,
    new RegExp(
      `^cannot reach the cloud: GET ${url}/api/v1/fleet/consent-requests: 127\\.0\\.0\\.1:${port} refused the connection .*\\(ECONNREFUSED\\)$`,
    ),
  );
  t.notMatch((err as Error).message, /fetch failed/);
});
