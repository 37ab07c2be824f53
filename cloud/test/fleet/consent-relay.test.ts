/**
 * The consent relay over a real app and store: an edge parks a request, it appears in the approvals queue
 * with what an operator judges it by; a token signed with the operator's own enrolled key is checked,
 * stored once, audited and handed to the edge once (a held request wakes when it lands); tokens of
 * unenrolled keys, of a key claiming another operator, for another intent, of too weak a scope, expired,
 * or late are refused and change nothing; another robot's edge key can neither post nor take.
 */
import type { ConsentRequest } from '@pentagate/protocol';
import t, { type Test } from 'tap';
import { AuditLog } from '../../src/audit/audit-log.js';
import { retireRobot } from '../../src/fleet/robot-registry.js';
import { openFleetStore } from '../../src/store/open-fleet-store.js';
import { revokeApiKey } from '../../src/tenants/tenant-admin.js';
import { MAX_CONSENT_POLLS_PER_KEY } from '../../src/fleet/consent-routes.js';
import {
  MAX_CONSENT_DEADLINE_AHEAD_MS,
  MAX_WAITING_CONSENT_BYTES_PER_ROBOT,
  MAX_WAITING_CONSENTS_PER_ROBOT,
} from '../../src/fleet/consent-relay.js';
import { bearer, httpCaller, type TestCloud, testCloud } from '../helpers/cloud-app.js';
import {
  consentRequestFor,
  consentToken,
  liftIntent,
  type TestOperator,
  testOperator,
} from '../helpers/consent.js';
import { testRobot } from '../helpers/fleet.js';

const REQUESTS = (robotId: string) => `/api/v1/fleet/robots/${robotId}/consent-requests`;
const GRANT = (robotId: string, digest: string) => `${REQUESTS(robotId)}/${digest}/grant`;
const DENY = (robotId: string, digest: string) => `${REQUESTS(robotId)}/${digest}/deny`;
const TAKE = (robotId: string, waitMs = 0) => `/api/v1/fleet/robots/${robotId}/consents?waitMs=${waitMs}`;

/** A cloud with robots arm-1 (`edgeKey`) and arm-2 (`otherKey`) in tenant a. */
async function twoRobots(t: Test) {
  const cloud = await testCloud(t);
  const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
  const otherKey = await testRobot(cloud, cloud.a, 'arm-2');
  return { cloud, edgeKey, otherKey };
}

/** The edge of `robotId` posts a consent request with `edgeKey`. */
function parkFor(cloud: TestCloud, robotId: string, edgeKey: string, request: ConsentRequest) {
  return cloud.app.inject({
    method: 'POST',
    url: REQUESTS(robotId),
    headers: bearer(edgeKey),
    payload: request,
  });
}

/** An edge of robot arm-1 posts a consent request with `edgeKey`. */
function park(cloud: TestCloud, edgeKey: string, request: ConsentRequest) {
  return parkFor(cloud, 'arm-1', edgeKey, request);
}

/** An operator of tenant a grants robot arm-1's `request` with `token`. */
function grantToken(cloud: TestCloud, request: { intentDigest: string }, token: unknown) {
  return cloud.app.inject({
    method: 'POST',
    url: GRANT('arm-1', request.intentDigest),
    headers: bearer(cloud.a.keys.operator),
    payload: { token },
  });
}

/** The operator names robot arm-1's edge is told, one per key it may trust. */
async function operatorKeyNames(cloud: TestCloud, edgeKey: string): Promise<string[]> {
  const keys = await cloud.app.inject({
    method: 'GET',
    url: '/api/v1/fleet/robots/arm-1/operator-keys',
    headers: bearer(edgeKey),
  });
  return keys.json().keys.map((k: { name: string }) => k.name);
}

async function enrol(cloud: TestCloud, operator: TestOperator) {
  return cloud.app.inject({
    method: 'PUT',
    url: '/api/v1/fleet/operator-key',
    headers: bearer(cloud.a.keys.admin),
    payload: { publicKey: operator.publicKey, operatorId: operator.operatorId },
  });
}

t.test('a parked move reaches the queue, an operator-signed token reaches the edge once', async (t) => {
  const cloud = await testCloud(t);
  const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
  const alice = testOperator('alice');
  t.equal((await enrol(cloud, alice)).statusCode, 200, 'the admin enrols alice');
  const request = consentRequestFor(liftIntent('arm-1'), Date.now());

  const posted = await park(cloud, edgeKey, request);
  t.equal(posted.statusCode, 200, posted.body);
  t.equal(posted.json().stored, true);
  const again = await park(cloud, edgeKey, request);
  t.same(again.json(), { stored: false }, 'a repeated post (edge restart, lost answer) stores nothing');

  const queue = await cloud.app.inject({
    method: 'GET',
    url: '/api/v1/approvals',
    headers: bearer(cloud.a.keys.operator),
  });
  t.equal(queue.statusCode, 200, queue.body);
  const [item] = queue.json().robotConsents;
  t.equal(item.robotId, 'arm-1', 'the request is in the approvals queue beside the proposals');
  t.same(
    [
      item.request.peakEffortNm,
      item.request.highTorqueThresholdNm,
      item.request.pathM.length,
      item.request.zones[0].id,
    ],
    [140, 100, 2, 'table'],
    'with the peak torque against the threshold and the path against the zones',
  );
  t.equal(item.grantPath, GRANT('arm-1', request.intentDigest));
  const otherTenant = await cloud.app.inject({
    method: 'GET',
    url: '/api/v1/fleet/consent-requests',
    headers: bearer(cloud.b.keys.operator),
  });
  t.same(otherTenant.json().items, [], "another tenant's operators do not see it");

  // The edge holds a request open; the grant wakes it.
  const held = cloud.app.inject({ method: 'GET', url: TAKE('arm-1', 10_000), headers: bearer(edgeKey) });
  const started = Date.now();
  await new Promise((r) => setTimeout(r, 100));
  const token = consentToken(alice, request, Date.now());
  const granted = await grantToken(cloud, request, token);
  t.equal(granted.statusCode, 200, granted.body);
  t.equal(granted.json().operatorId, 'alice');
  const relayed = await held;
  t.ok(Date.now() - started < 5000, 'the held request returned on the grant, not at its 10 s limit');
  t.same(relayed.json(), { robotId: 'arm-1', tokens: [token] }, 'the edge gets the token exactly as signed');
  const twice = await cloud.app.inject({ method: 'GET', url: TAKE('arm-1'), headers: bearer(edgeKey) });
  t.same(twice.json().tokens, [], 'and only once');

  const replay = await grantToken(cloud, request, consentToken(alice, request, Date.now()));
  t.equal(replay.json().error.code, 'CONSENT_REQUEST_CLOSED', 'a second grant for the same move is refused');
  const entries = await cloud.store.auditEntries(0, await cloud.store.auditSize());
  t.same(
    entries.map((e) => e.entry.type).filter((type) => type.startsWith('consent.') || type === 'operator.key'),
    ['operator.key', 'consent.request', 'consent.grant'],
    'enrolment, request and grant are audited once each',
  );
  const grantEntry = entries.find((e) => e.entry.type === 'consent.grant')!.entry;
  t.equal(grantEntry.actor, 'alice');
  t.equal(grantEntry.subjectDigest, request.intentDigest);
});

t.test('tokens that do not bind the request to an enrolled operator are refused', async (t) => {
  const cloud = await testCloud(t);
  const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
  const alice = testOperator('alice');
  const mallory = testOperator('mallory');
  const now = Date.now();
  const request = consentRequestFor(liftIntent('arm-1'), now);
  await park(cloud, edgeKey, request);
  const grant = (token: unknown) => grantToken(cloud, request, token);

  const none = await grant(consentToken(alice, request, now));
  t.match(none.json().error, { code: 'CONSENT_TOKEN_INVALID', message: /no operator key is enrolled/ });
  await enrol(cloud, alice);
  const cases: [string, unknown, RegExp][] = [
    ['an unenrolled key', consentToken(mallory, request, now), /not trusted|unknown|no trusted/i],
    [
      "alice's key naming another operator",
      consentToken(alice, request, now, { operatorId: 'bob' }),
      /names operator bob.*enrolled for alice/,
    ],
    [
      'another intent',
      consentToken(alice, request, now, { intentDigest: 'e'.repeat(64) }),
      /binds intent digest e+/,
    ],
    ['an expired statement', consentToken(alice, request, now, { expiresAt: now - 1 }), /expired/],
    // outside review: signed on a clock 15 s ahead, it was relayed, refused by the edge, and the request closed
    [
      'a statement valid only from 15 s ahead',
      consentToken(alice, request, now, { notBefore: now + 15_000, expiresAt: now + 75_000 }),
      /valid only from .* ahead of this server's clock .* check the signing computer's clock/,
    ],
    [
      'a statement valid only after the edge stops waiting',
      consentToken(alice, request, now, {
        notBefore: request.deadlineMs,
        expiresAt: request.deadlineMs + 60_000,
      }),
      /valid only from .* after the edge stops waiting/,
    ],
  ];
  for (const [what, token, message] of cases) {
    const res = await grant(token);
    t.equal(res.statusCode, 400, `${what}: refused`);
    t.match(res.json().error.message, message, `${what}: says why`);
  }
  const critical = { ...consentRequestFor(liftIntent('arm-1'), now), scope: 'safety-critical' as const };
  await park(cloud, edgeKey, critical);
  const weak = await grantToken(
    cloud,
    critical,
    consentToken(alice, critical, now, { scope: 'high-torque' }),
  );
  t.match(weak.json().error.message, /needs safety-critical/, 'too weak a scope for a safety-critical move');
  const forged = consentToken(alice, request, now) as { payload: string };
  const tampered = await grant({ ...forged, payload: Buffer.from('{"v":1}').toString('base64') });
  t.equal(tampered.json().error.code, 'CONSENT_TOKEN_INVALID', 'an altered payload is refused');
  const taken = await cloud.app.inject({ method: 'GET', url: TAKE('arm-1'), headers: bearer(edgeKey) });
  t.same(taken.json().tokens, [], 'nothing refused reaches the edge');
  t.equal(
    (await grant(consentToken(alice, request, now))).statusCode,
    200,
    'a good token still goes through',
  );
});

t.test('a request that shows less torque than its own intent declares is refused', async (t) => {
  const { cloud, edgeKey } = await twoRobots(t);
  const honest = consentRequestFor(liftIntent('arm-1'), Date.now()); // efforts up to 140 N·m, peak 140
  const understated = await park(cloud, edgeKey, { ...honest, peakEffortNm: 14, reasons: ['routine'] });
  t.equal(understated.statusCode, 400, understated.body);
  t.match(
    understated.json().error.message,
    /peakEffortNm 14 is below the 140 N·m the intent itself declares/,
  );
  const noEfforts = {
    ...honest.intent,
    points:
      honest.intent.kind === 'joint-trajectory'
        ? honest.intent.points.map(({ effortsNm: _e, ...p }) => p)
        : [],
  } as typeof honest.intent;
  const unknown = consentRequestFor(noEfforts, Date.now()); // limits 150 N·m assumed; the request says 140
  const belowLimits = await park(cloud, edgeKey, unknown);
  t.equal(belowLimits.statusCode, 400, belowLimits.body);
  t.match(belowLimits.json().error.message, /below the torque limit 150 N·m the edge assumes/);
  t.equal(
    (await park(cloud, edgeKey, { ...unknown, peakEffortNm: 150 })).statusCode,
    200,
    'the limits it assumes',
  );
  t.equal(
    (await park(cloud, edgeKey, { ...honest, peakEffortNm: 140.0004 })).statusCode,
    200,
    'the honest one',
  );
});

t.test('late grants, foreign edges and operators enrolling for others are refused', async (t) => {
  let clock = Date.now();
  const cloud = await testCloud(t, { nowMs: () => clock });
  const key1 = await testRobot(cloud, cloud.a, 'arm-1');
  const key2 = await testRobot(cloud, cloud.a, 'arm-2');
  const alice = testOperator('alice');
  await enrol(cloud, alice);
  const request = consentRequestFor(liftIntent('arm-1'), clock, 1000);

  const foreign = await park(cloud, key2, request);
  t.equal(foreign.json().error.code, 'ROBOT_FORBIDDEN', "another robot's edge key cannot post for arm-1");
  const mismatched = await park(cloud, key1, { ...request, intentDigest: 'a'.repeat(64) });
  t.match(
    mismatched.json().error.message,
    /is not SHA-256\(JCS\(intent\)\)/,
    'the digest must be the intent',
  );
  await park(cloud, key1, request);
  const stolen = await cloud.app.inject({ method: 'GET', url: TAKE('arm-1'), headers: bearer(key2) });
  t.equal(stolen.json().error.code, 'ROBOT_FORBIDDEN', "another robot's edge key cannot take arm-1's tokens");

  clock += 1001;
  const late = await grantToken(cloud, request, consentToken(alice, request, clock));
  t.match(late.json().error, { code: 'CONSENT_REQUEST_CLOSED', message: /the edge vetoed the move/ });
  const queue = await cloud.app.inject({
    method: 'GET',
    url: '/api/v1/fleet/consent-requests',
    headers: bearer(cloud.a.keys.operator),
  });
  t.same(queue.json().items, [], 'a request past its deadline leaves the queue');

  const selfOnly = await cloud.app.inject({
    method: 'PUT',
    url: '/api/v1/fleet/operator-key',
    headers: bearer(cloud.a.keys.operator),
    payload: { publicKey: testOperator('x').publicKey, operatorId: 'alice' },
  });
  t.equal(selfOnly.statusCode, 403, 'an operator key cannot enrol a key for another operator');
  const own = await cloud.app.inject({
    method: 'PUT',
    url: '/api/v1/fleet/operator-key',
    headers: bearer(cloud.a.keys.operator),
    payload: { publicKey: testOperator('x').publicKey },
  });
  t.equal(own.statusCode, 200, own.body);
  const keys = await cloud.app.inject({
    method: 'GET',
    url: '/api/v1/fleet/robots/arm-1/operator-keys',
    headers: bearer(key1),
  });
  t.same(
    keys.json().keys.map((k: { name: string; role: string }) => k.role),
    ['operator', 'operator'],
    'the edge reads the enrolled keys as operator trust entries',
  );
  t.ok(
    keys.json().keys.some((k: { name: string }) => k.name === own.json().operatorId),
    'an operator enrols under its own key id',
  );
});

t.test(
  "a stolen operator API key cannot put its own consent key in place of the operator's; an admin retires one",
  async (t) => {
    const cloud = await testCloud(t);
    const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
    const operatorId = cloud.a.keyIds.operator;
    const enrolSelf = (operator: TestOperator) =>
      cloud.app.inject({
        method: 'PUT',
        url: '/api/v1/fleet/operator-key',
        headers: bearer(cloud.a.keys.operator),
        payload: { publicKey: operator.publicKey },
      });
    const owner = testOperator(operatorId);
    const first = await enrolSelf(owner);
    t.equal(first.statusCode, 200, 'the operator enrols a first key with its API key');
    t.equal((await enrolSelf(owner)).statusCode, 200, 'and may enrol the same key again (a new tab)');

    // whoever stole the API key makes a key pair of their own and tries to swap it in
    const thief = testOperator(operatorId);
    const swapped = await enrolSelf(thief);
    t.equal(swapped.statusCode, 409, swapped.body);
    t.equal(swapped.json().error.code, 'OPERATOR_KEY_ENROLLED');
    t.match(swapped.json().error.message, /already has consent key \S+ enrolled/);
    const request = consentRequestFor(liftIntent('arm-1'), Date.now());
    t.equal((await park(cloud, edgeKey, request)).statusCode, 200);
    const forged = await grantToken(cloud, request, consentToken(thief, request, Date.now()));
    t.equal(forged.statusCode, 400, 'a token of the key that was not enrolled is refused');
    t.same(
      (await cloud.app.inject({ method: 'GET', url: TAKE('arm-1'), headers: bearer(edgeKey) })).json().tokens,
      [],
      'and nothing reaches the robot',
    );

    // the operator's own retirement, and an operator retiring with its API key, are refused: retire-then-enrol
    // would be the same swap
    const byOperator = await cloud.app.inject({
      method: 'DELETE',
      url: `/api/v1/fleet/operator-key/${operatorId}`,
      headers: bearer(cloud.a.keys.operator),
    });
    t.equal(byOperator.statusCode, 403, 'an operator key cannot retire a consent key');
    const otherTenant = await cloud.app.inject({
      method: 'DELETE',
      url: `/api/v1/fleet/operator-key/${operatorId}`,
      headers: bearer(cloud.b.keys.admin),
    });
    t.equal(otherTenant.statusCode, 404, "another tenant's admin finds no such key");
    const retired = await cloud.app.inject({
      method: 'DELETE',
      url: `/api/v1/fleet/operator-key/${operatorId}`,
      headers: bearer(cloud.a.keys.admin),
    });
    t.equal(retired.statusCode, 200, retired.body);
    t.equal(retired.json().kid, first.json().kid, "the operator's key is the one retired");
    const operatorKeys = await cloud.app.inject({
      method: 'GET',
      url: '/api/v1/fleet/robots/arm-1/operator-keys',
      headers: bearer(edgeKey),
    });
    t.same(operatorKeys.json().keys, [], 'the edge is no longer told to trust the retired key');
    const retiredToken = await grantToken(cloud, request, consentToken(owner, request, Date.now()));
    t.equal(retiredToken.json().error.code, 'CONSENT_TOKEN_INVALID', 'its tokens are refused');
    const again = await cloud.app.inject({
      method: 'DELETE',
      url: `/api/v1/fleet/operator-key/${operatorId}`,
      headers: bearer(cloud.a.keys.admin),
    });
    t.equal(again.json().error.code, 'OPERATOR_KEY_NOT_FOUND', 'a retired key is not retired twice');

    const fresh = testOperator(operatorId);
    t.equal((await enrolSelf(fresh)).statusCode, 200, 'after the retirement the operator enrols a new key');
    const granted = await grantToken(cloud, request, consentToken(fresh, request, Date.now()));
    t.equal(granted.statusCode, 200, granted.body);
    const entries = await cloud.store.auditEntries(0, await cloud.store.auditSize());
    t.same(
      entries
        .filter((e) => e.entry.type === 'operator.key')
        .map((e) => (e.entry.data as { action: string }).action),
      ['enroll', 'enroll', 'retire', 'enroll'],
      'enrolments and the retirement are audited; the refused swap is not stored',
    );
  },
);

t.test("an operator's consent key is no longer trusted once its API key is revoked", async (t) => {
  const cloud = await testCloud(t);
  const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
  const url = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const call = httpCaller(url);
  // The operator enrols its own key, as the console does: its operator id is its API key's id.
  const operatorKeyId = (await cloud.store.listApiKeys(cloud.a.id)).find((k) => k.scope === 'operator')!.id;
  const leaver = testOperator(operatorKeyId);
  const enrolled = await call(cloud.a.keys.operator, 'PUT', '/api/v1/fleet/operator-key', {
    publicKey: leaver.publicKey,
  });
  t.equal((await enrolled.json()).operatorId, operatorKeyId);
  const trusted = async () =>
    (
      (await (await call(edgeKey, 'GET', '/api/v1/fleet/robots/arm-1/operator-keys')).json()) as {
        keys: { name: string }[];
      }
    ).keys.map((k) => k.name);
  t.same(await trusted(), [operatorKeyId], 'the edge is told to trust it');

  await revokeApiKey(cloud.store, cloud.a.id, operatorKeyId);
  t.same(await trusted(), [], 'after the revocation the edge is no longer told to trust it');
  const request = consentRequestFor(liftIntent('arm-1'), Date.now());
  t.equal((await call(edgeKey, 'POST', REQUESTS('arm-1'), request)).status, 200);
  // The revoked operator still holds its private key and hands a signed token to a colleague to relay.
  const relayed = await call(cloud.a.keys.admin, 'POST', GRANT('arm-1', request.intentDigest), {
    token: consentToken(leaver, request, Date.now()),
  });
  t.equal(relayed.status, 400, 'a token signed by the revoked operator is refused');
  t.equal((await relayed.json()).error.code, 'CONSENT_TOKEN_INVALID');
  const taken = await call(edgeKey, 'GET', TAKE('arm-1'));
  t.same((await taken.json()).tokens, [], 'and nothing reaches the robot');
});

t.test(
  'one edge key holds at most MAX_CONSENT_POLLS_PER_KEY polls open; an answered poll frees its place',
  async (t) => {
    const cloud = await testCloud(t);
    const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
    const poll = (waitMs: number) =>
      cloud.app.inject({ method: 'GET', url: TAKE('arm-1', waitMs), headers: bearer(edgeKey) });
    const held = Array.from({ length: MAX_CONSENT_POLLS_PER_KEY }, () => poll(1_500));
    await new Promise((r) => setTimeout(r, 100));
    const over = await poll(1_500);
    t.equal(over.statusCode, 429, over.body);
    t.equal(over.json().error.code, 'RATE_LIMITED');
    t.equal(over.headers['retry-after'], '1');
    const taken = await poll(0);
    t.equal(taken.statusCode, 200, 'a poll that does not wait is answered at once');
    t.same(
      (await Promise.all(held)).map((r) => r.statusCode),
      Array(MAX_CONSENT_POLLS_PER_KEY).fill(200),
      'the held polls are answered when their wait ends',
    );
    const again = await poll(10);
    t.equal(again.statusCode, 200, 'their places are free again');
  },
);

t.test('a robot retired while its edge waits gets no token, and its moves cannot be granted', async (t) => {
  const cloud = await testCloud(t);
  const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
  const alice = testOperator('alice');
  t.equal((await enrol(cloud, alice)).statusCode, 200);
  const request = consentRequestFor(liftIntent('arm-1'), Date.now());
  const posted = await park(cloud, edgeKey, request);
  t.equal(posted.statusCode, 200, posted.body);
  const held = cloud.app.inject({ method: 'GET', url: TAKE('arm-1', 10_000), headers: bearer(edgeKey) });
  await new Promise((r) => setTimeout(r, 100));
  await retireRobot(cloud.store, await openFleetStore(cloud.store), cloud.a.id, 'arm-1');
  const granted = await grantToken(cloud, request, consentToken(alice, request, Date.now()));
  t.equal(granted.statusCode, 404, granted.body);
  t.equal(granted.json().error.code, 'ROBOT_NOT_FOUND', 'a retired robot has no moves to grant');
  const taken = await held;
  t.equal(taken.statusCode, 404, taken.body);
  t.equal(taken.json().error.code, 'ROBOT_NOT_FOUND', 'the waiting edge is told, and takes no token');
});

t.test(
  "an operator cannot enrol a key another operator holds, and so cannot stop the tenant's consent",
  async (t) => {
    const cloud = await testCloud(t);
    const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
    const alice = testOperator('alice');
    t.equal((await enrol(cloud, alice)).statusCode, 200);
    const enrolledBefore = await cloud.store.auditSize();
    // alice's public key is listed to every operator and edge of the tenant; another operator enrols it as its own
    const taken = await cloud.app.inject({
      method: 'PUT',
      url: '/api/v1/fleet/operator-key',
      headers: bearer(cloud.a.keys.operator),
      payload: { publicKey: alice.publicKey },
    });
    t.equal(taken.statusCode, 409, taken.body);
    t.match(taken.json().error, { code: 'OPERATOR_KEY_CONFLICT', message: /enrolled for operator alice/ });
    const entries = await cloud.store.auditEntries(enrolledBefore, await cloud.store.auditSize());
    t.same(
      entries.map((e) => e.entry.type),
      ['refusal'],
      'nothing enrolled, the refusal recorded',
    );
    const again = await enrol(cloud, alice);
    t.equal(again.statusCode, 200, 'the operator holding the key enrols it again');

    t.same(await operatorKeyNames(cloud, edgeKey), ['alice'], 'the edge is told one operator per key');
    const request = consentRequestFor(liftIntent('arm-1'), Date.now());
    t.equal((await park(cloud, edgeKey, request)).statusCode, 200);
    const granted = await grantToken(cloud, request, consentToken(alice, request, Date.now()));
    t.equal(granted.statusCode, 200, "alice's consent still reaches the robot");
  },
);

t.test(
  'a key enrolled for two operators in the store is trusted for neither, and the others still are',
  async (t) => {
    const cloud = await testCloud(t);
    const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
    const alice = testOperator('alice');
    const bob = testOperator('bob');
    t.equal((await enrol(cloud, alice)).statusCode, 200);
    t.equal((await enrol(cloud, bob)).statusCode, 200);
    // as two enrolments that raced on two replicas, or a store written before enrolment refused it, leave it
    const fleet = await openFleetStore(cloud.store);
    const [aliceKey] = (await fleet.listOperatorKeys(cloud.a.id)).filter((k) => k.operatorId === 'alice');
    await fleet.putOperatorKey(
      { ...aliceKey!, operatorId: 'mallory' },
      AuditLog.builder(
        { type: 'operator.key', tenantId: cloud.a.id, actor: 'system', data: { operatorId: 'mallory' } },
        Date.now(),
      ),
    );
    t.same(
      await operatorKeyNames(cloud, edgeKey),
      ['bob'],
      'the ambiguous key id is left out; the edge can still build its trust',
    );
    const request = consentRequestFor(liftIntent('arm-1'), Date.now());
    t.equal((await park(cloud, edgeKey, request)).statusCode, 200);
    const grant = (operator: TestOperator) =>
      grantToken(cloud, request, consentToken(operator, request, Date.now()));
    t.equal(
      (await grant(alice)).json().error.code,
      'CONSENT_TOKEN_INVALID',
      'the ambiguous key signs for nobody',
    );
    t.equal((await grant(bob)).statusCode, 200, "bob's consent is relayed");
  },
);

t.test('a consent key that is no usable Ed25519 public key is refused 400, not a server fault', async (t) => {
  const cloud = await testCloud(t);
  const before = await cloud.store.auditSize();
  const zero = await cloud.app.inject({
    method: 'PUT',
    url: '/api/v1/fleet/operator-key',
    headers: bearer(cloud.a.keys.operator),
    payload: { publicKey: 'A'.repeat(43) },
  });
  t.equal(zero.statusCode, 400, zero.body);
  t.match(zero.json().error, { code: 'INVALID_BODY', details: { issues: [{ path: '/publicKey' }] } });
  const entries = await cloud.store.auditEntries(before, await cloud.store.auditSize());
  t.same(
    entries.map((e) => e.entry.type),
    ['refusal'],
    'nothing enrolled',
  );
});

t.test(
  'a HEAD request for the granted tokens takes none: a token is handed out only in a body',
  async (t) => {
    const cloud = await testCloud(t);
    const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
    const alice = testOperator('alice');
    t.equal((await enrol(cloud, alice)).statusCode, 200);
    const request = consentRequestFor(liftIntent('arm-1'), Date.now());
    t.equal((await park(cloud, edgeKey, request)).statusCode, 200);
    const token = consentToken(alice, request, Date.now());
    const granted = await grantToken(cloud, request, token);
    t.equal(granted.statusCode, 200, granted.body);
    const head = await cloud.app.inject({ method: 'HEAD', url: TAKE('arm-1'), headers: bearer(edgeKey) });
    t.equal(
      head.statusCode,
      405,
      'HEAD is not a way to take tokens (a HEAD answer has no body to carry them)',
    );
    const taken = await cloud.app.inject({ method: 'GET', url: TAKE('arm-1'), headers: bearer(edgeKey) });
    t.same(taken.json().tokens, [token], 'the token still reaches the edge');
  },
);

t.test('times past what a Date holds are refused 400, not answered as server faults', async (t) => {
  const cloud = await testCloud(t);
  const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
  const alice = testOperator('alice');
  t.equal((await enrol(cloud, alice)).statusCode, 200);
  const request = consentRequestFor(liftIntent('arm-1'), Date.now());
  const before = await cloud.store.auditSize();
  // 9e15 ms is an integer JSON carries exactly, and past the year 275760: new Date(9e15) is Invalid Date
  const farDeadline = await park(cloud, edgeKey, { ...request, deadlineMs: 9e15 });
  t.equal(farDeadline.statusCode, 400, farDeadline.body);
  t.match(farDeadline.json().error, { code: 'INVALID_BODY', details: { issues: [{ path: '/deadlineMs' }] } });

  t.equal((await park(cloud, edgeKey, request)).statusCode, 200);
  const farExpiry = await grantToken(
    cloud,
    request,
    consentToken(alice, request, Date.now(), { expiresAt: 9e15 }),
  );
  t.equal(farExpiry.statusCode, 400, farExpiry.body);
  t.equal(farExpiry.json().error.code, 'CONSENT_TOKEN_INVALID');
  const entries = await cloud.store.auditEntries(before, await cloud.store.auditSize());
  t.same(
    entries.map((e) => e.entry.type),
    ['refusal', 'consent.request', 'refusal'],
    'the refusals recorded, nothing else but the valid request',
  );
});

t.test('a move its edge stopped waiting for leaves the queue and takes no grant', async (t) => {
  const { cloud, edgeKey, otherKey } = await twoRobots(t);
  const alice = testOperator('alice');
  await enrol(cloud, alice);
  const request = consentRequestFor(liftIntent('arm-1'), Date.now());
  await park(cloud, edgeKey, request);
  const close = (key: string) =>
    cloud.app.inject({
      method: 'DELETE',
      url: `${REQUESTS('arm-1')}/${request.intentDigest}`,
      headers: bearer(key),
    });
  const queue = async () =>
    (
      await cloud.app.inject({
        method: 'GET',
        url: '/api/v1/approvals',
        headers: bearer(cloud.a.keys.operator),
      })
    ).json().robotConsents;

  t.equal(
    (await close(otherKey)).json().error.code,
    'ROBOT_FORBIDDEN',
    "another robot's edge cannot close it",
  );
  t.equal((await queue()).length, 1, 'still waiting');
  // the edge took consent from its consent topic (or vetoed the move): it says so
  const closed = await close(edgeKey);
  t.equal(closed.statusCode, 200, closed.body);
  t.equal(closed.json().closed, true);
  t.same(await queue(), [], 'the operator no longer sees a move that already ran');
  const late = await grantToken(cloud, request, consentToken(alice, request, Date.now()));
  t.equal(late.statusCode, 409);
  t.match(late.json().error, { code: 'CONSENT_REQUEST_CLOSED', message: /no longer waits/ });
  t.same((await close(edgeKey)).json(), { closed: false }, 'closing twice changes nothing');
  const entries = await cloud.store.auditEntries(0, await cloud.store.auditSize());
  t.same(
    entries.map((e) => e.entry.type).filter((type) => type.startsWith('consent.')),
    ['consent.request', 'consent.closed'],
    'the close is audited once',
  );
});

t.test(
  "a starting edge closes its robot's moves an earlier run left waiting, and no other robot's",
  async (t) => {
    const { cloud, edgeKey, otherKey } = await twoRobots(t);
    const now = Date.now();
    await park(cloud, edgeKey, consentRequestFor(liftIntent('arm-1', 'lift-a'), now));
    await park(cloud, edgeKey, consentRequestFor(liftIntent('arm-1', 'lift-b'), now));
    const other = consentRequestFor(liftIntent('arm-2', 'lift-c'), now);
    await parkFor(cloud, 'arm-2', otherKey, other);
    const closeAll = (key: string) =>
      cloud.app.inject({ method: 'DELETE', url: REQUESTS('arm-1'), headers: bearer(key) });
    t.equal((await closeAll(otherKey)).json().error.code, 'ROBOT_FORBIDDEN', "another robot's edge cannot");
    const closed = await closeAll(edgeKey);
    t.equal(closed.statusCode, 200, 'the restarted edge of arm-1 closes its own');
    t.same(closed.json(), { closed: 2 });
    const queue = await cloud.app.inject({
      method: 'GET',
      url: '/api/v1/approvals',
      headers: bearer(cloud.a.keys.operator),
    });
    t.same(
      queue.json().robotConsents.map((r: { robotId: string }) => r.robotId),
      ['arm-2'],
      "arm-2's move still waits",
    );
  },
);

t.test(
  "one robot's waiting requests are bounded, and so is how far ahead a deadline lies; nothing is stored past either",
  async (t) => {
    const { cloud, edgeKey, otherKey } = await twoRobots(t);
    const now = Date.now();
    const waitingCount = async () =>
      (
        await cloud.app.inject({
          method: 'GET',
          url: '/api/v1/fleet/consent-requests?robot=arm-1',
          headers: bearer(cloud.a.keys.operator),
        })
      ).json().items.length;

    const far = consentRequestFor(liftIntent('arm-1'), now, MAX_CONSENT_DEADLINE_AHEAD_MS + 60_000);
    const refusedFar = await park(cloud, edgeKey, far);
    t.equal(refusedFar.statusCode, 400);
    t.match(refusedFar.json().error, { code: 'INVALID_BODY', message: /more than 25 h ahead/ });
    const day = await park(cloud, edgeKey, consentRequestFor(liftIntent('arm-1'), now, 86_400_000));
    t.equal(day.statusCode, 200, "a profile's longest wait (24 h) is taken");

    const first = consentRequestFor(liftIntent('arm-1'), now);
    await park(cloud, edgeKey, first);
    for (let i = 2; i < MAX_WAITING_CONSENTS_PER_ROBOT; i++) {
      t.equal((await park(cloud, edgeKey, consentRequestFor(liftIntent('arm-1'), now))).statusCode, 200);
    }
    t.equal(await waitingCount(), MAX_WAITING_CONSENTS_PER_ROBOT);
    const flood = await park(cloud, edgeKey, consentRequestFor(liftIntent('arm-1'), now));
    t.equal(flood.statusCode, 429);
    t.equal(flood.headers['retry-after'], '5');
    t.match(flood.json().error, {
      code: 'RATE_LIMITED',
      message: new RegExp(
        `robot arm-1 already has ${MAX_WAITING_CONSENTS_PER_ROBOT} consent requests waiting`,
      ),
    });
    t.equal(await waitingCount(), MAX_WAITING_CONSENTS_PER_ROBOT, 'the one past the bound is not stored');
    t.same((await park(cloud, edgeKey, first)).json(), { stored: false }, 'a repeat is still answered');
    const arm2 = await parkFor(cloud, 'arm-2', otherKey, consentRequestFor(liftIntent('arm-2'), now));
    t.equal(arm2.statusCode, 200, 'another robot is not held back');

    const closed = await cloud.app.inject({
      method: 'DELETE',
      url: `${REQUESTS('arm-1')}/${first.intentDigest}`,
      headers: bearer(edgeKey),
    });
    t.equal(closed.statusCode, 200, closed.body);
    const after = await park(cloud, edgeKey, consentRequestFor(liftIntent('arm-1'), now));
    t.equal(after.statusCode, 200, 'once one closes, the next is taken');
  },
);

t.test(
  "one robot's waiting requests are bounded in bytes too: every operator's approvals list carries them whole",
  async (t) => {
    const { cloud, edgeKey, otherKey } = await twoRobots(t);
    const now = Date.now();
    // A move of 8,000 points (the schema allows 10,000): about 0.94 MB of JSON, within the 1 MiB body limit.
    const heavy = (robotId: string) => {
      const intent = liftIntent(robotId);
      if (intent.kind !== 'joint-trajectory') throw new Error('a joint move');
      intent.points = Array.from({ length: 8_000 }, (_, i) => ({
        positionsRad: [0.1234567890123 + i * 1e-7, 0.2345678901234],
        effortsNm: [120.123456789, 30.123456789],
        timeFromStartMs: 10 * (i + 1),
      }));
      return consentRequestFor(intent, now);
    };
    const bytes = (r: ConsentRequest) => Buffer.byteLength(JSON.stringify(r));
    const first = heavy('arm-1');
    const fits = Math.floor(MAX_WAITING_CONSENT_BYTES_PER_ROBOT / bytes(first));
    t.ok(fits >= 2 && fits < MAX_WAITING_CONSENTS_PER_ROBOT, `${fits} of ${bytes(first)} bytes fit`);
    t.equal((await park(cloud, edgeKey, first)).statusCode, 200);
    for (let i = 1; i < fits; i++) t.equal((await park(cloud, edgeKey, heavy('arm-1'))).statusCode, 200);
    const over = await park(cloud, edgeKey, heavy('arm-1'));
    t.equal(over.statusCode, 429);
    t.equal(over.headers['retry-after'], '5');
    t.match(over.json().error, {
      code: 'RATE_LIMITED',
      message: new RegExp(
        `robot arm-1's waiting consent requests hold \\d+ bytes; with this one of \\d+ they would pass ${MAX_WAITING_CONSENT_BYTES_PER_ROBOT}`,
      ),
    });
    const listed = await cloud.app.inject({
      method: 'GET',
      url: '/api/v1/fleet/consent-requests?robot=arm-1',
      headers: bearer(cloud.a.keys.operator),
    });
    t.equal(listed.json().items.length, fits, 'the one past the bound is not stored');
    t.same((await park(cloud, edgeKey, first)).json(), { stored: false }, 'a repeat is still answered');
    t.equal(
      (await park(cloud, edgeKey, consentRequestFor(liftIntent('arm-1'), now))).statusCode,
      200,
      'a small one still fits beside them',
    );
    const arm2 = await parkFor(cloud, 'arm-2', otherKey, heavy('arm-2'));
    t.equal(arm2.statusCode, 200, 'another robot is not held back');
    const closed = await cloud.app.inject({
      method: 'DELETE',
      url: `${REQUESTS('arm-1')}/${first.intentDigest}`,
      headers: bearer(edgeKey),
    });
    t.equal(closed.statusCode, 200, closed.body);
    t.equal(
      (await park(cloud, edgeKey, heavy('arm-1'))).statusCode,
      200,
      'once one closes, the next is taken',
    );
  },
);

t.test(
  "an operator's signed denial reaches the edge once, on its own route, and closes the request",
  async (t) => {
    const cloud = await testCloud(t);
    const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
    const alice = testOperator('alice');
    t.equal((await enrol(cloud, alice)).statusCode, 200);
    const request: ConsentRequest = {
      ...consentRequestFor(liftIntent('arm-1'), Date.now()),
      scope: 'safety-critical',
    };
    t.equal((await park(cloud, edgeKey, request)).statusCode, 200);
    const queue = await cloud.app.inject({
      method: 'GET',
      url: '/api/v1/fleet/consent-requests',
      headers: bearer(cloud.a.keys.operator),
    });
    t.equal(
      queue.json().items[0].denyPath,
      DENY('arm-1', request.intentDigest),
      'the queue names the deny route',
    );

    const denyWith = (token: unknown) =>
      cloud.app.inject({
        method: 'POST',
        url: DENY('arm-1', request.intentDigest),
        headers: bearer(cloud.a.keys.operator),
        payload: { token },
      });
    const grantAsDenial = await denyWith(consentToken(alice, request, Date.now()));
    t.equal(grantAsDenial.statusCode, 400, 'a grant sent to the deny route is refused');
    t.match(grantAsDenial.json().error.message, /denial must say decision "deny"/);
    const denial = consentToken(alice, request, Date.now(), { decision: 'deny', scope: 'high-torque' });
    const denialAsGrant = await grantToken(cloud, request, denial);
    t.equal(
      denialAsGrant.statusCode,
      400,
      'a denial sent to the grant route is refused, never relayed as consent',
    );
    t.match(denialAsGrant.json().error.message, /denies the move/);
    const storedNothing = await cloud.app.inject({
      method: 'GET',
      url: '/api/v1/fleet/robots/arm-1/consents?waitMs=0',
      headers: bearer(edgeKey),
    });
    t.same(storedNothing.json().tokens, [], 'nothing was stored by the refused ones');

    // a high-torque denial of a safety-critical move: refusing takes no more authority than leaving it waiting
    const denied = await denyWith(denial);
    t.equal(denied.statusCode, 200, denied.body);
    t.equal(denied.json().operatorId, 'alice');
    const taken = await cloud.app.inject({ method: 'GET', url: TAKE('arm-1'), headers: bearer(edgeKey) });
    t.same(taken.json().tokens, [denial], 'the edge gets the denial exactly as signed');
    const grantAfter = await grantToken(cloud, request, consentToken(alice, request, Date.now()));
    t.equal(grantAfter.json().error.code, 'CONSENT_REQUEST_CLOSED', 'a grant after the denial is refused');
    t.match(grantAfter.json().error.message, /already decided \(granted or denied\) by alice/);
    const entries = await cloud.store.auditEntries(0, await cloud.store.auditSize());
    const types = entries.map((e) => e.entry.type).filter((type) => type.startsWith('consent.'));
    t.same(types, ['consent.request', 'consent.deny'], 'the denial is audited as one, by its operator');
    t.equal(entries.find((e) => e.entry.type === 'consent.deny')?.entry.actor, 'alice');
  },
);
