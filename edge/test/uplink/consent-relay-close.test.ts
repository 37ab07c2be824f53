/**
 * A move the edge posted to the cloud's approvals queue and then stopped waiting for — consent came on the
 * robot's consent topic, the move was vetoed or superseded — is closed in the cloud at once, so operators
 * never see (and sign) a move that already ran; while the cloud cannot be reached the close is retried, and
 * past the move's deadline (when the cloud drops it by itself) it is given up. The cloud here is a small real
 * HTTP server answering the fleet routes the relay uses, over a real socket and the real CloudLink.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConsentRequest } from '@pentagate/protocol';
import pino from 'pino';
import t, { type Test } from 'tap';
import { CloudLink } from '../../src/uplink/cloud-link.js';
import { ConsentRelay } from '../../src/uplink/consent-relay.js';

const ROBOT = 'arm-1';

interface CloudState {
  /** Answer every request with 503 while set (a cloud restarting). */
  down: boolean;
  posted: string[];
  closed: string[];
  /** The queue-changing calls in order: `close-all` and `post`. */
  calls: string[];
}

async function fleetRoutes(t: Test, state: CloudState): Promise<string> {
  const answer = (res: ServerResponse, body: unknown, status = 200) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      if (state.down) return answer(res, { error: { code: 'STORE_UNAVAILABLE', message: 'down' } }, 503);
      const requests = `/api/v1/fleet/robots/${ROBOT}/consent-requests`;
      if (url.pathname === `/api/v1/fleet/robots/${ROBOT}/operator-keys`) return answer(res, { keys: [] });
      if (url.pathname === requests && req.method === 'POST') {
        state.calls.push('post');
        state.posted.push((JSON.parse(body) as { intentDigest: string }).intentDigest);
        return answer(res, { stored: true });
      }
      if (url.pathname === requests && req.method === 'DELETE') {
        state.calls.push('close-all');
        return answer(res, { closed: 2 });
      }
      if (url.pathname.startsWith(`${requests}/`) && req.method === 'DELETE') {
        state.closed.push(url.pathname.slice(requests.length + 1));
        return answer(res, { closed: true, auditIndex: 7 });
      }
      if (url.pathname === `/api/v1/fleet/robots/${ROBOT}/consents`) {
        return setTimeout(() => answer(res, { robotId: ROBOT, tokens: [] }), 20);
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function until(what: string, ok: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function relayWith(
  t: Test,
  state: CloudState,
  waiting: { intentDigest: string; deadlineMs: number }[],
) {
  const url = await fleetRoutes(t, state);
  const relay = new ConsentRelay({
    link: new CloudLink({ url, key: 'pgk_test', robotId: ROBOT }),
    gate: {
      waitingConsents: () => waiting,
      consentRequest: (intentDigest) =>
        ({
          intentDigest,
          deadlineMs: waiting.find((w) => w.intentDigest === intentDigest)?.deadlineMs,
        }) as unknown as ConsentRequest,
      trustOperatorKeys: () => {},
      isProfileKey: () => false,
    },
    deliver: () => {},
    logger: pino({ level: 'silent' }),
    pollMs: 5,
    retryMs: 20,
  });
  relay.start();
  t.teardown(() => relay.stop());
  return relay;
}

t.test(
  'a move that stops waiting at the edge is closed in the cloud, retried while it is down',
  async (t) => {
    const state: CloudState = { down: false, posted: [], closed: [], calls: [] };
    const waiting = [
      { intentDigest: 'a'.repeat(64), deadlineMs: Date.now() + 60_000 },
      { intentDigest: 'b'.repeat(64), deadlineMs: Date.now() + 60_000 },
    ];
    await relayWith(t, state, waiting);
    await until('both moves posted', () => state.posted.length === 2);
    t.same(state.closed, [], 'nothing is closed while the moves wait');

    // consent for the first arrived on the consent topic while the cloud restarts
    state.down = true;
    waiting.splice(0, 1);
    await new Promise((r) => setTimeout(r, 100));
    t.same(state.closed, [], 'the cloud is down');
    state.down = false;
    await until('the first move closed', () => state.closed.length > 0);
    t.same(state.closed, ['a'.repeat(64)], 'closed once the cloud is back, and only the move that ended');
    await new Promise((r) => setTimeout(r, 100));
    t.same(state.closed, ['a'.repeat(64)], 'and once');
  },
);

t.test('a close past the move deadline is given up (the cloud drops the request itself)', async (t) => {
  const state: CloudState = { down: false, posted: [], closed: [], calls: [] };
  const waiting = [{ intentDigest: 'c'.repeat(64), deadlineMs: Date.now() + 300 }];
  await relayWith(t, state, waiting);
  await until('the move posted', () => state.posted.length === 1);
  state.down = true;
  waiting.splice(0, 1);
  await new Promise((r) => setTimeout(r, 500));
  state.down = false;
  await new Promise((r) => setTimeout(r, 200));
  t.same(state.closed, [], 'nothing is sent for a request the cloud no longer lists');
});

t.test(
  'a starting relay first closes what an earlier run left waiting in the cloud, then posts',
  async (t) => {
    const state: CloudState = { down: true, posted: [], closed: [], calls: [] };
    await relayWith(t, state, [{ intentDigest: 'd'.repeat(64), deadlineMs: Date.now() + 60_000 }]);
    await new Promise((r) => setTimeout(r, 100));
    t.same(state.calls, [], 'nothing while the cloud is down');
    state.down = false;
    await until('the move posted', () => state.posted.length === 1);
    t.same(
      state.calls,
      ['close-all', 'post'],
      'the earlier run closed first, once; then the new wait posted',
    );
  },
);
