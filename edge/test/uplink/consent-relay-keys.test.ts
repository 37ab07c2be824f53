/**
 * The edge's consent relay reads the tenant's operator keys again after a token signed by a key the profile
 * does not hold arrives, before the gate takes it (the relay's `hold`, which the node applies to every consent
 * token, as `deliver` does here): a key retired in the cloud since the last read releases nothing (outside
 * review: it did for up to `keysRefreshMs`), and a key an operator's browser enrolled at its first signature
 * (the console), a moment after the edge read the keys for the waiting move, is trusted for that first grant.
 * A token signed by a key of the profile's own trust needs no read. The cloud here is a small real HTTP server
 * answering the three fleet routes the relay uses, over a real socket and the real CloudLink.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEd25519Signer, dsseSignStatement, generateEd25519 } from '@pentagate/crypto';
import { type ConsentRequest, type DsseEnvelope, type TrustedKey, toBase64Url } from '@pentagate/protocol';
import pino from 'pino';
import t, { type Test } from 'tap';
import { CloudLink } from '../../src/uplink/cloud-link.js';
import { ConsentRelay } from '../../src/uplink/consent-relay.js';

const ROBOT = 'arm-1';
const DIGEST = 'a'.repeat(64);

function operatorKey() {
  const signer = createEd25519Signer(generateEd25519().privateKey);
  const trusted: TrustedKey = {
    kid: signer.keyid,
    alg: 'Ed25519',
    role: 'operator',
    publicKey: toBase64Url(signer.publicKey),
  };
  const token: DsseEnvelope = dsseSignStatement('application/vnd.pentagate.test+json', { n: 1 }, signer);
  return { trusted, token };
}

/** What the fake cloud holds and what the edge asked it. */
interface CloudState {
  keys: TrustedKey[];
  tokens: DsseEnvelope[];
  keyReads: number;
  /** The operator-keys route answers 503 (the cloud is unreachable behind its proxy). */
  keysDown?: boolean;
}

async function fleetRoutes(t: Test, state: CloudState): Promise<string> {
  const answer = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    req.resume();
    if (url.pathname === `/api/v1/fleet/robots/${ROBOT}/operator-keys`) {
      state.keyReads++;
      if (state.keysDown) return res.writeHead(503).end();
      return answer(res, { keys: state.keys });
    }
    if (url.pathname === `/api/v1/fleet/robots/${ROBOT}/consent-requests`)
      return answer(res, { stored: true });
    if (url.pathname === `/api/v1/fleet/robots/${ROBOT}/consents`) {
      const tokens = state.tokens.splice(0);
      // an empty answer after a short hold, as a long poll that timed out
      if (tokens.length === 0) return setTimeout(() => answer(res, { robotId: ROBOT, tokens }), 20);
      return answer(res, { robotId: ROBOT, tokens });
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function relayWith(
  t: Test,
  state: CloudState,
  keysRefreshMs?: number,
  waits = () => true,
  profileKids: readonly string[] = [],
) {
  const url = await fleetRoutes(t, state);
  const trustedAtDelivery: string[][] = [];
  let trusted: string[] = [];
  const delivered: unknown[] = [];
  /** What the gate trusts as it takes the token: after the hold, as the node does it. */
  const gateTakes = (token: unknown) => {
    trustedAtDelivery.push(trusted);
    delivered.push(token);
  };
  const relay: ConsentRelay = new ConsentRelay({
    link: new CloudLink({ url, key: 'pgk_test', robotId: ROBOT }),
    gate: {
      waitingConsents: () => (waits() ? [{ intentDigest: DIGEST, deadlineMs: Date.now() + 60_000 }] : []),
      consentRequest: () => ({ intentDigest: DIGEST }) as unknown as ConsentRequest,
      trustOperatorKeys: (keys) => {
        trusted = keys.map((k) => k.kid);
      },
      isProfileKey: (kid) => profileKids.includes(kid),
    },
    deliver: (token) => {
      const held = relay.hold(token);
      if (held) void held.then(() => gateTakes(token));
      else gateTakes(token);
    },
    logger: pino({ level: 'silent' }),
    pollMs: 5,
    holdMs: 50,
    ...(keysRefreshMs !== undefined ? { keysRefreshMs } : {}),
  });
  relay.start();
  t.teardown(() => relay.stop());
  const until = async (done: () => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    if (!done()) throw new Error('timed out');
  };
  return { relay, delivered, trustedAtDelivery, until, trusted: () => trusted };
}

t.test(
  'a token signed by a key enrolled after the move was posted is delivered with that key trusted',
  async (t) => {
    const state: CloudState = { keys: [], tokens: [], keyReads: 0 };
    const { delivered, trustedAtDelivery, until } = await relayWith(t, state);
    await until(() => state.keyReads >= 1);
    // the browser enrols its key at its first signature, then the cloud relays the token
    const browser = operatorKey();
    state.keys.push(browser.trusted);
    state.tokens.push(browser.token);
    await until(() => delivered.length === 1);
    t.same(
      trustedAtDelivery[0],
      [browser.trusted.kid],
      'the new key was trusted before the token was delivered',
    );
    t.equal(state.keyReads, 2, 'read once for the posted move, once more for the unknown signer');
  },
);

t.test(
  'a token from a key retired since the last read reaches the gate only after a read without it',
  async (t) => {
    // The operator's key leaked: an admin retires it (`pentagate cloud operator retire`) while the move waits,
    // a moment after the edge read the keys for it, and a token it signs arrives — through the cloud (granted
    // before the retirement) or on the consent topic, where the node holds it the same way.
    const leaked = operatorKey();
    const state: CloudState = { keys: [leaked.trusted], tokens: [], keyReads: 0 };
    const { delivered, trustedAtDelivery, until, trusted } = await relayWith(t, state);
    await until(() => state.keyReads >= 1 && trusted().length === 1);
    state.keys = []; // retired, and committed
    state.tokens.push(leaked.token);
    await until(() => delivered.length === 1);
    t.same(trustedAtDelivery[0], [], 'the gate no longer trusts the retired key when it takes the token');
    t.equal(state.keyReads, 2, 'read once for the posted move, once more for the token');
  },
);

t.test('a token from a key still enrolled is delivered with it trusted, after one read', async (t) => {
  const cli = operatorKey();
  const state: CloudState = { keys: [cli.trusted], tokens: [], keyReads: 0 };
  const { delivered, trustedAtDelivery, until } = await relayWith(t, state);
  await until(() => state.keyReads >= 1);
  state.tokens.push(cli.token);
  await until(() => delivered.length === 1);
  t.same(trustedAtDelivery[0], [cli.trusted.kid]);
  t.equal(state.keyReads, 2);
});

t.test('a token signed by a key of the profile is delivered at once, without a read', async (t) => {
  // the profile's own keys are not the cloud's to retire, and must keep working while the cloud is down
  const own = operatorKey();
  const state: CloudState = { keys: [], tokens: [], keyReads: 0 };
  const { delivered, until } = await relayWith(t, state, undefined, () => true, [own.trusted.kid]);
  await until(() => state.keyReads >= 1);
  state.keysDown = true;
  state.tokens.push(own.token);
  await until(() => delivered.length === 1);
  t.equal(state.keyReads, 1, 'no read for it, and none failing could hold it');
});

t.test('tokens arriving together share one read', async (t) => {
  const a = operatorKey();
  const b = operatorKey();
  const state: CloudState = { keys: [a.trusted, b.trusted], tokens: [], keyReads: 0 };
  const { delivered, until } = await relayWith(t, state);
  await until(() => state.keyReads >= 1);
  state.tokens.push(a.token, b.token);
  await until(() => delivered.length === 2);
  t.equal(state.keyReads, 2, 'two tokens in one answer cost one read');
});

t.test(
  'a token whose signer is not enrolled at all is still handed to the gate, which refuses it',
  async (t) => {
    const stranger = operatorKey();
    const state: CloudState = { keys: [], tokens: [], keyReads: 0 };
    const { delivered, trustedAtDelivery, until } = await relayWith(t, state);
    await until(() => state.keyReads >= 1);
    state.tokens.push(stranger.token);
    await until(() => delivered.length === 1);
    t.same(trustedAtDelivery[0], [], 'the re-read found no such key: the gate decides (and refuses)');
    t.equal(state.keyReads, 2);
  },
);

t.test(
  'when the operator keys can no longer be read, the keys read before are trusted no longer',
  async (t) => {
    // Revoked in the cloud meanwhile, or not: the edge cannot tell, and a revoked key must not release a move
    // through the consent topic for as long as the cloud stays out of reach.
    const revoked = operatorKey();
    const state: CloudState = { keys: [revoked.trusted], tokens: [], keyReads: 0 };
    const { until, trusted } = await relayWith(t, state, 20);
    await until(() => state.keyReads >= 1 && trusted().length === 1);
    state.keysDown = true;
    const reads = state.keyReads;
    await until(() => state.keyReads > reads);
    await until(() => trusted().length === 0);
    t.same(trusted(), [], 'the gate trusts no cloud-enrolled key after a failed read');
    state.keysDown = false;
    await until(() => trusted().length === 1);
    t.same(trusted(), [revoked.trusted.kid], 'a successful read trusts the enrolled keys again');
  },
);

t.test(
  'keys not read again while no move waits are trusted no longer; the next posted move reads them',
  async (t) => {
    const enrolled = operatorKey();
    const state: CloudState = { keys: [enrolled.trusted], tokens: [], keyReads: 0 };
    let waiting = true;
    const { until, trusted } = await relayWith(t, state, 30, () => waiting);
    await until(() => trusted().length === 1);
    waiting = false; // the move was granted; the robot idles, and the cloud may revoke the key meanwhile
    await until(() => trusted().length === 0);
    t.same(trusted(), [], 'an idle edge keeps no cloud key it has not read for keysRefreshMs');
    const reads = state.keyReads;
    waiting = true;
    await until(() => trusted().length === 1);
    t.ok(state.keyReads > reads, 'read again for the next move');
  },
);

t.test('a stopped relay leaves the gate no key from the cloud: nothing would read them again', async (t) => {
  const enrolled = operatorKey();
  const state: CloudState = { keys: [enrolled.trusted], tokens: [], keyReads: 0 };
  const { relay, until, trusted } = await relayWith(t, state);
  await until(() => trusted().length === 1);
  await relay.stop();
  t.same(trusted(), [], 'dropped at the stop');
  t.equal(relay.hold(enrolled.token), undefined, 'and a token is no longer held for a read that cannot come');
});
