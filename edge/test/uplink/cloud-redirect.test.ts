/**
 * The edge's fleet link and the operator's `consent pending|grant` follow no redirect. Followed, the request
 * went again to an address nobody configured — a 307 re-sends the body: audit records, a consent token —
 * and whatever answered there was taken as the cloud's answer: operator keys the gate then trusts for
 * consent, an acknowledgement after which the outbox counts records as shipped, the moves an operator signs.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ed25519KeyId, generateEd25519 } from '@pentagate/crypto';
import { toBase64Url } from '@pentagate/protocol';
import t, { type Test } from 'tap';
import { CloudLink, UplinkError } from '../../src/uplink/cloud-link.js';
import { ConsentCloudError, relayConsent, waitingConsents } from '../../src/uplink/operator-consent.js';

const ROBOT = 'arm-1';

/** A server answering every request with `answer` (status 200, JSON); counts what reached it. */
async function elsewhere(t: Test, answer: unknown): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits: () => hits };
}

/** A cloud address that answers every request with a 307 to the same path at `target`. */
async function moved(t: Test, target: string): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(307, { location: `${target}${req.url}` }).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function attackerKey() {
  const { publicKey } = generateEd25519();
  return {
    kid: ed25519KeyId(publicKey),
    alg: 'Ed25519',
    role: 'operator',
    publicKey: toBase64Url(publicKey),
  };
}

t.test('the edge link takes no operator keys, tokens or acknowledgements from a redirect', async (t) => {
  const other = await elsewhere(t, {
    robotId: ROBOT,
    keys: [attackerKey()],
    tokens: [{ payloadType: 'x', payload: '', signatures: [] }],
    acknowledged: 1_000_000,
    headDigest: 'f'.repeat(64),
  });
  const link = new CloudLink({
    url: await moved(t, other.url),
    key: `pgk_${'A'.repeat(43)}`,
    robotId: ROBOT,
  });
  const refusals = [
    await link.operatorKeys().catch((e: unknown) => e),
    await link.takeConsents(0).catch((e: unknown) => e),
    await link.ack().catch((e: unknown) => e),
    await link.ship([]).catch((e: unknown) => e),
  ];
  for (const err of refusals) {
    t.ok(err instanceof UplinkError, 'refused');
    t.equal((err as UplinkError).code, 'CLOUD_REFUSED');
    t.equal((err as UplinkError).status, 307);
    t.match((err as Error).message, /HTTP 307, a redirect to ".*", which is not followed/);
  }
  t.equal(other.hits(), 0, 'the redirect target received nothing');
});

t.test('consent pending|grant neither list nor relay through a redirect', async (t) => {
  const other = await elsewhere(t, {
    items: [],
    auditIndex: 1,
  });
  const cloud = { url: await moved(t, other.url), key: `pgk_${'A'.repeat(43)}` };
  const listed = await waitingConsents(cloud, ROBOT).catch((e: unknown) => e);
  t.ok(listed instanceof ConsentCloudError);
  t.equal((listed as ConsentCloudError).code, 'CLOUD_REFUSED');
  t.match((listed as Error).message, /^GET \/api\/v1\/fleet\/consent-requests\?robot=arm-1: .*HTTP 307/);
  const move = {
    robotId: ROBOT,
    intentDigest: 'a'.repeat(64),
    grantPath: `/api/v1/fleet/robots/${ROBOT}/consent-requests/${'a'.repeat(64)}/grant`,
  } as Parameters<typeof relayConsent>[1];
  const relayed = await relayConsent(cloud, move, { token: 'signed' }).catch((e: unknown) => e);
  t.ok(relayed instanceof ConsentCloudError);
  t.match((relayed as Error).message, /HTTP 307, a redirect/);
  t.equal(other.hits(), 0, 'the token reached no other address');
});
