/**
 * An open live stream ends once its API key is revoked: the stream outlives the request whose key was
 * checked, so the key is checked again while it is open (`liveKeyCheckMs`). A revoked auditor must not
 * keep watching the fleet's verdicts on a connection opened before the revocation, while a viewer whose
 * key is still valid keeps receiving them.
 */
import { get, type IncomingMessage } from 'node:http';
import t from 'tap';
import { revokeApiKey } from '../../src/tenants/tenant-admin.js';
import { bearer, testCloud } from '../helpers/cloud-app.js';
import { edgeChain } from '../helpers/edge-records.js';
import { testRobot } from '../helpers/fleet.js';

interface Viewer {
  text(): string;
  ended: Promise<void>;
  close(): void;
}

function watch(url: string, key: string): Promise<Viewer> {
  return new Promise((resolve, reject) => {
    const chunks: string[] = [];
    const req = get(`${url}/api/v1/fleet/live`, { headers: bearer(key) }, (res: IncomingMessage) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => chunks.push(chunk));
      const ended = new Promise<void>((done) => res.on('close', done));
      resolve({ text: () => chunks.join(''), ended, close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

const verdicts = (text: string) => text.split('\n\n').filter((b) => b.startsWith('event: verdict')).length;

t.test('a revoked key stops receiving the live stream it opened before the revocation', async (t) => {
  const cloud = await testCloud(t, { liveKeyCheckMs: 50 });
  const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
  const url = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const auditor = await watch(url, cloud.a.keys.auditor);
  const operator = await watch(url, cloud.a.keys.operator);
  t.teardown(() => {
    auditor.close();
    operator.close();
  });
  const chain = edgeChain('arm-1', 4);
  const ship = (from: number, to: number) =>
    fetch(`${url}/api/v1/fleet/robots/arm-1/records`, {
      method: 'POST',
      headers: { ...bearer(edgeKey), 'content-type': 'application/json' },
      body: JSON.stringify({ records: chain.slice(from, to) }),
    });
  t.equal((await ship(0, 2)).status, 200);
  await new Promise((r) => setTimeout(r, 100));
  t.equal(verdicts(auditor.text()), 2, 'the auditor sees the verdicts while its key is valid');

  const keys = await cloud.store.listApiKeys(cloud.a.id);
  await revokeApiKey(cloud.store, cloud.a.id, keys.find((k) => k.scope === 'auditor')!.id);
  const closed = await Promise.race([
    auditor.ended.then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), 2000)),
  ]);
  t.ok(closed, "the cloud ends the revoked key's stream");
  t.equal((await ship(2, 4)).status, 200);
  await new Promise((r) => setTimeout(r, 100));
  t.equal(verdicts(auditor.text()), 2, 'no verdict reaches the revoked key');
  t.equal(verdicts(operator.text()), 4, 'a valid key keeps its stream');
  const again = await fetch(`${url}/api/v1/fleet/live`, { headers: bearer(cloud.a.keys.auditor) });
  t.equal(again.status, 401, 'and a reconnect is refused');
});
