/**
 * GovClient against a real cloud on a real port (no mocked fetch): every AuthorizationStatus, execution
 * exactly once, replay, audit events with the page iterator, and every error class — the transport ones
 * against real misbehaving servers. Responses are checked against @pentagate/protocol's schemas.
 */
import {
  AuthorizationDecisionSchema,
  conforms,
  ExecutionResultSchema,
  ReplayResultSchema,
  AuditEntrySchema,
} from '@pentagate/protocol';
import t from 'tap';
import {
  AuthenticationError,
  BadResponseError,
  ConflictError,
  DoubleExecutionError,
  ExecutionDeniedError,
  GovClient,
  GovError,
  NetworkError,
  NotFoundError,
  PermissionDeniedError,
  type ProposedAction,
  QuotaExceededError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  AbortedError,
  ValidationFailedError,
} from '../src/index.js';
import { closedPort, liveCloud, proxyPage, rawServer } from './live-cloud.js';
import { issueApiKey } from '@pentagate/cloud';

const FAKE_KEY = `pgk_${'A'.repeat(43)}`;

function ledger(amount: number, extra: Partial<ProposedAction> = {}): ProposedAction {
  return {
    type: 'ledger:write',
    payload: { amount, recipient: `supplier-${amount}-${Math.random()}` },
    context: { agentId: 'client-bot', confidenceScore: 0.95 },
    ...extra,
  };
}

async function rejection(p: Promise<unknown>): Promise<GovError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof GovError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

t.test('every status, exactly-once execution, replay and audit events over a real port', async (t) => {
  const cloud = await liveCloud(t);
  const client = new GovClient({ baseUrl: `${cloud.baseUrl}/`, apiKey: cloud.a.keys.agent });

  const allow = await client.authorize(ledger(100));
  const deny = await client.authorize({
    type: 'tool:invoke',
    payload: { tool: 'shell.exec' },
    context: { agentId: 'client-bot', confidenceScore: 0.9 },
  });
  const human = await client.authorize({
    type: 'vault:write',
    payload: { path: 'kv/x' },
    context: { agentId: 'client-bot', confidenceScore: 0.9 },
  });
  const held = await client.authorize({
    type: 'policy:update',
    payload: { change: 'x' },
    context: { agentId: 'client-bot', confidenceScore: 0.9 },
  });
  t.same(
    [allow.status, deny.status, human.status, held.status],
    ['ALLOW', 'DENY', 'REQUIRE_HUMAN', 'HELD_FOR_VETO'],
  );
  for (const d of [allow, deny, human, held])
    t.ok(conforms(AuthorizationDecisionSchema, d), `${d.status} matches the protocol schema`);
  t.ok(deny.remediation && deny.violations.length > 0);
  t.ok(held.holdUntil);

  const executed = await client.execute(allow.proposalId);
  t.equal(executed.executed, true, 'execute takes the proposalId string (specification §2.1)');
  t.type(executed.executionId, 'string', 'ExecutionResult carries executionId (specification §2.1)');
  t.ok(conforms(ExecutionResultSchema, executed));

  const twice = await rejection(client.execute({ proposalId: allow.proposalId }));
  t.type(twice, DoubleExecutionError);
  t.same([twice.code, twice.status], ['DOUBLE_EXECUTION', 409]);
  const denied = await rejection(client.execute({ proposalId: deny.proposalId }));
  t.type(denied, ExecutionDeniedError);
  t.same([denied.code, denied.status], ['EXECUTION_DENIED', 403]);
  t.type(
    await rejection(client.execute({ proposalId: human.proposalId })),
    ExecutionDeniedError,
    'pending → denied',
  );
  t.type(
    await rejection(client.execute({ proposalId: held.proposalId })),
    ExecutionDeniedError,
    'inside the hold',
  );
  cloud.clock.nowMs += 60_000;
  t.equal((await client.execute({ proposalId: held.proposalId })).executed, true, 'after the hold');

  const replayed = await client.replay(deny.proposalId);
  t.equal(replayed.identical, true);
  t.ok(conforms(ReplayResultSchema, replayed));
  const missing = await rejection(client.replay('prp_missing'));
  t.type(missing, NotFoundError);
  t.equal(missing.code, 'PROPOSAL_NOT_FOUND');

  const page = await client.getAuditEvents({ type: 'decision', limit: 2 });
  t.equal(page.events.length, 2);
  t.ok(page.nextCursor);
  const all: number[] = [];
  for await (const e of client.auditEvents({ proposalId: held.proposalId, from: new Date(0), limit: 1 })) {
    t.ok(conforms(AuditEntrySchema, e));
    all.push(e.index);
  }
  t.equal(all.length, 2, 'decision and execution of the held proposal, one page each');
  const decisions: string[] = [];
  for await (const e of client.auditEvents({ type: 'decision', agentId: 'client-bot', limit: 3 }))
    decisions.push(String(e.data.proposalId));
  t.same(
    decisions,
    [allow, deny, human, held].map((d) => d.proposalId),
    'the iterator walks every page in order',
  );
});

t.test('server errors map to their classes with code, status and details', async (t) => {
  const cloud = await liveCloud(t);
  const agent = new GovClient({ baseUrl: cloud.baseUrl, apiKey: cloud.a.keys.agent });

  const unknownKey = await rejection(
    new GovClient({ baseUrl: cloud.baseUrl, apiKey: FAKE_KEY }).authorize(ledger(1)),
  );
  t.type(unknownKey, AuthenticationError);
  t.same([unknownKey.code, unknownKey.status], ['UNAUTHENTICATED', 401]);

  const auditor = new GovClient({ baseUrl: cloud.baseUrl, apiKey: cloud.a.keys.auditor });
  const scope = await rejection(auditor.authorize(ledger(1)));
  t.type(scope, PermissionDeniedError);
  t.equal(scope.code, 'SCOPE_FORBIDDEN');

  const boundKey = (await issueApiKey(cloud.store, cloud.a.id, 'agent', Date.now(), { agent: 'other-bot' }))
    .key;
  const bound = new GovClient({ baseUrl: cloud.baseUrl, apiKey: boundKey });
  const otherAgent = await rejection(bound.authorize(ledger(1)));
  t.type(otherAgent, PermissionDeniedError, 'a key bound to another agent');
  t.same([otherAgent.code, otherAgent.status], ['AGENT_FORBIDDEN', 403]);

  const invalid = await rejection(agent.authorize({ ...ledger(1), type: 'ledger:delete' as never }));
  t.type(invalid, ValidationFailedError);
  t.equal(invalid.status, 400);
  t.ok(invalid.details, 'the server’s issues come along');

  await agent.authorize(ledger(5, { idempotencyKey: 'k-1' }));
  const conflict = await rejection(agent.authorize(ledger(6, { idempotencyKey: 'k-1' })));
  t.type(conflict, ConflictError);
  t.equal(conflict.code, 'IDEMPOTENCY_CONFLICT');

  const notFound = await rejection(agent.execute({ proposalId: 'prp_none' }));
  t.type(notFound, NotFoundError);

  const limited = await liveCloud(t, { rateLimit: { max: 1, timeWindowMs: 60_000 } });
  const limitedClient = new GovClient({ baseUrl: limited.baseUrl, apiKey: limited.a.keys.agent });
  await limitedClient.authorize(ledger(1));
  const tooMany = await rejection(limitedClient.authorize(ledger(2)));
  t.type(tooMany, RateLimitedError);
  t.equal(tooMany.status, 429);
  t.ok((tooMany as RateLimitedError).retryAfterMs !== undefined, 'the Retry-After hint is read');

  // a key at its cap of proposals waiting for an operator: back-pressure like a 429, not a permission refusal
  const capped = await liveCloud(t, {
    kernel: { policyUpdateHoldMs: 60_000, expirySweepMs: 0, openProposalsPerKey: 1 },
  });
  const cappedClient = new GovClient({ baseUrl: capped.baseUrl, apiKey: capped.a.keys.agent });
  const unsure = () => ledger(3, { context: { agentId: 'client-bot', confidenceScore: 0.1 } });
  t.equal((await cappedClient.authorize(unsure())).status, 'REQUIRE_HUMAN');
  const quota = await rejection(cappedClient.authorize(unsure()));
  t.type(quota, QuotaExceededError, 'OPEN_PROPOSALS_LIMIT is a quota');
  t.type(quota, RateLimitedError, 'caught with the 429s: try again later');
  t.notOk(quota instanceof PermissionDeniedError, 'not a permission refusal');
  t.same(
    [
      quota.code,
      quota.status,
      (quota as QuotaExceededError).openProposals,
      (quota as QuotaExceededError).limit,
    ],
    ['OPEN_PROPOSALS_LIMIT', 403, 1, 1],
  );

  const broken = await liveCloud(t);
  const brokenClient = new GovClient({ baseUrl: broken.baseUrl, apiKey: broken.a.keys.agent, maxRetries: 0 });
  await broken.store.close();
  const down = await rejection(brokenClient.authorize(ledger(1)));
  t.type(down, ServerError);
  t.ok(down.status >= 500);
});

t.test('transport failures: time-out, abort, refused connection, non-JSON answer', async (t) => {
  const hang = await rawServer(t, 'hang');
  const slow = new GovClient({ baseUrl: hang.baseUrl, apiKey: FAKE_KEY, timeoutMs: 150, maxRetries: 0 });
  const timeout = await rejection(slow.execute({ proposalId: 'prp_x' }));
  t.type(timeout, TimeoutError);
  t.same([timeout.code, timeout.status], ['TIMEOUT', 0]);

  const patient = new GovClient({ baseUrl: hang.baseUrl, apiKey: FAKE_KEY, timeoutMs: 60_000 });
  const controller = new AbortController();
  const pending = patient.authorize(ledger(1), { signal: controller.signal });
  setTimeout(() => controller.abort(), 50);
  t.type(await rejection(pending), AbortedError);
  t.type(
    await rejection(patient.replay('prp_x', { signal: controller.signal })),
    AbortedError,
    'an aborted signal fails at once',
  );

  const refused = new GovClient({ baseUrl: await closedPort(), apiKey: FAKE_KEY, maxRetries: 0 });
  const network = await rejection(refused.getAuditEvents());
  t.type(network, NetworkError);
  t.equal(network.status, 0);
  // says why nothing answered (fetch's own message is only "fetch failed")
  t.match(network.message, /: fetch failed: .*ECONNREFUSED/);

  const html = await rawServer(t, proxyPage(200));
  const bad = await rejection(
    new GovClient({ baseUrl: html.baseUrl, apiKey: FAKE_KEY }).execute({ proposalId: 'p' }),
  );
  t.type(bad, BadResponseError);
  t.match(bad.message, /expected a JSON body/);

  const behindProxy = async (status: number) =>
    rejection(
      new GovClient({ baseUrl: (await rawServer(t, proxyPage(status))).baseUrl, apiKey: FAKE_KEY }).authorize(
        ledger(1),
      ),
    );
  const html401 = await behindProxy(401);
  t.type(html401, AuthenticationError, 'a 401 is an authentication failure whatever its body');
  t.same([html401.code, html401.status], ['HTTP_401', 401]);
  t.type(await behindProxy(403), PermissionDeniedError, 'a 403 likewise');

  // a redirect is not followed: the other address would get the body and answer in the server's name
  const elsewhere = await rawServer(t, { status: 200, contentType: 'application/json', body: '{}' });
  const moved = await rawServer(t, {
    status: 307,
    contentType: 'text/plain',
    body: '',
    headers: { location: `${elsewhere.baseUrl}/api/v1/kernel/authorize` },
  });
  const redirected = await rejection(
    new GovClient({ baseUrl: moved.baseUrl, apiKey: FAKE_KEY, maxRetries: 0 }).authorize(ledger(1)),
  );
  t.type(redirected, BadResponseError);
  t.same([redirected.code, redirected.status], ['REDIRECT', 307]);
  t.match(redirected.message, /redirecting to .*set baseUrl to the address that answers/);
  t.equal(elsewhere.hits, 0, 'the redirect target received nothing');

  t.throws(() => new GovClient({ baseUrl: 'ftp://x', apiKey: FAKE_KEY }), ValidationFailedError);
  t.throws(
    () => new GovClient({ baseUrl: 'http://x', apiKey: undefined as unknown as string }),
    ValidationFailedError,
    'a key that is not a string is an options error',
  );
});

t.test(
  'a key that cannot be a Pentagate key fails every call with AuthenticationError, unsent',
  async (t) => {
    const server = await rawServer(t, proxyPage(200));
    const cases = [
      { apiKey: 'nope-secret', why: /not a Pentagate key/ },
      { apiKey: `${FAKE_KEY}\n`, why: /not allowed in an HTTP header/ },
      { apiKey: 'pgk_secret\u2028', why: /not allowed in an HTTP header/ },
    ];
    for (const { apiKey, why } of cases) {
      const client = new GovClient({ baseUrl: server.baseUrl, apiKey });
      for (const call of [
        () => client.authorize(ledger(1, { idempotencyKey: 'k' })),
        () => client.execute('prp_x'),
        () => client.replay('prp_x'),
        () => client.getAuditEvents(),
        () => client.auditEvents().next(),
      ]) {
        const err = await rejection(call());
        t.type(err, AuthenticationError);
        t.same([err.code, err.status], ['UNAUTHENTICATED', 0]);
        t.match(err.message, why);
        t.notOk(err.message.includes(apiKey.trim()), 'the message never holds the key');
      }
    }
    t.equal(server.hits, 0, 'nothing was sent');
  },
);

t.test('an action JSON cannot carry unchanged is refused before it is sent', async (t) => {
  const server = await rawServer(t, proxyPage(200));
  const client = new GovClient({ baseUrl: server.baseUrl, apiKey: FAKE_KEY });
  const exportOf = (payload: Record<string, unknown>): ProposedAction => ({
    type: 'data:export',
    payload,
    context: { agentId: 'export-bot', confidenceScore: 0.9 },
  });
  const cyclic: Record<string, unknown> = { table: 'customers' };
  cyclic.self = cyclic;
  const cases: [ProposedAction, RegExp][] = [
    // JSON.stringify would send these as null: the kernel would decide another export than the one run
    [
      exportOf({ recordCount: Number.POSITIVE_INFINITY }),
      /\/payload\/recordCount is Infinity, which JSON cannot carry/,
    ],
    [exportOf({ recordCount: Number.NaN }), /\/payload\/recordCount is NaN/],
    [exportOf({ 'rows/ids': [1, undefined] }), /\/payload\/rows~1ids\/1 is undefined/],
    [exportOf({ recordCount: 10n }), /\/payload\/recordCount is a BigInt/],
    [exportOf(cyclic), /\/payload\/self refers back to an enclosing value/],
    [
      { ...ledger(1), context: { agentId: 'a', confidenceScore: Number.NaN } },
      /\/context\/confidenceScore is NaN/,
    ],
  ];
  for (const [action, why] of cases) {
    for (const call of [
      () => client.authorize(action),
      () => client.authorize({ ...action, idempotencyKey: 'k' }),
    ]) {
      const err = await rejection(call());
      t.type(err, ValidationFailedError, 'not a NetworkError: nothing was sent, so the outcome is known');
      t.same([err.code, err.status], ['INVALID_BODY', 0]);
      t.match(err.message, /POST \/api\/v1\/kernel\/authorize: not sent: /);
      t.match(err.message, why);
    }
  }
  t.equal(server.hits, 0, 'nothing was sent');
  // what JSON carries as given still goes: an optional member left undefined, a Date as its ISO text
  const sent = await rejection(
    client.authorize(exportOf({ table: 'orders', note: undefined, since: new Date(0), recordCount: -0 })),
  );
  t.type(sent, BadResponseError, 'the request reached the server (which answered a page)');
  t.equal(server.hits, 1);
});

t.test('a 2xx answer without the result’s required fields is a BadResponseError', async (t) => {
  const answering = async (body: string) => {
    const server = await rawServer(t, { status: 200, contentType: 'application/json', body });
    const client = new GovClient({ baseUrl: server.baseUrl, apiKey: FAKE_KEY });
    return {
      authorize: () => client.authorize(ledger(1)),
      execute: () => client.execute('prp_x'),
      replay: () => client.replay('prp_x'),
      getAuditEvents: () => client.getAuditEvents(),
    };
  };
  for (const body of ['[]', 'null', '42', '"ok"', '{}']) {
    for (const [operation, call] of Object.entries(await answering(body))) {
      const bad = await rejection(call());
      t.type(bad, BadResponseError, `${operation} answered ${body}`);
      t.same([bad.code, bad.status], ['BAD_RESPONSE', 200]);
    }
  }
  const decision = {
    proposalId: 'prp_1',
    status: 'MAYBE',
    violations: [],
    expiresAt: '2026-01-01T00:05:00.000Z',
    policyDigest: 'a'.repeat(64),
  };
  const unknownStatus = await rejection((await answering(JSON.stringify(decision))).authorize());
  t.type(unknownStatus, BadResponseError);
  t.match(
    unknownStatus.message,
    /status: expected one of ALLOW, DENY, REQUIRE_HUMAN, HELD_FOR_VETO, got "MAYBE"/,
  );
  const noExecutionId = {
    proposalId: 'prp_1',
    executed: true,
    executedAt: decision.expiresAt,
    auditIndex: 3,
  };
  const execution = await rejection((await answering(JSON.stringify(noExecutionId))).execute());
  t.match(execution.message, /executionId: expected string, got undefined/);
  const eventsObject = await rejection((await answering('{"events":{}}')).getAuditEvents());
  t.match(eventsObject.message, /events: expected array, got object/);
});

t.test('retry policy: only calls that cannot act twice are retried', async (t) => {
  const drop = await rawServer(t, 'drop');
  const client = new GovClient({ baseUrl: drop.baseUrl, apiKey: FAKE_KEY, maxRetries: 2, retryDelayMs: 5 });
  const count = async (call: () => Promise<unknown>) => {
    const before = drop.hits;
    t.type(await rejection(call()), NetworkError);
    return drop.hits - before;
  };
  t.equal(await count(() => client.execute({ proposalId: 'prp_x' })), 1, 'execute: never retried');
  t.equal(
    await count(() => client.authorize(ledger(1))),
    1,
    'authorize without idempotencyKey: never retried',
  );
  t.equal(
    await count(() => client.authorize(ledger(1, { idempotencyKey: 'retry-me' }))),
    3,
    'authorize with a key: retried',
  );
  t.equal(await count(() => client.replay('prp_x')), 3, 'reads: retried');
});

t.test('an idempotent authorize retried after a lost answer gets the first decision', async (t) => {
  const cloud = await liveCloud(t);
  const client = new GovClient({ baseUrl: cloud.baseUrl, apiKey: cloud.a.keys.agent });
  const action = ledger(25, { idempotencyKey: 'invoice-99' });
  const first = await client.authorize(action);
  const again = await client.authorize(action);
  t.equal(again.proposalId, first.proposalId);
  t.equal(again.status, first.status);
});

t.test('replay of a dot-segment id is refused unsent, not resolved away by the URL parser', async (t) => {
  // `replay('..')` built /api/v1/kernel/replay/.. — which fetch's URL parser turns into /api/v1/kernel/ (so
  // does %2E%2E) — and was answered 404 "no route GET /api/v1/kernel/"; any route there would have answered
  const server = await rawServer(t, proxyPage(200));
  const client = new GovClient({ baseUrl: server.baseUrl, apiKey: FAKE_KEY });
  for (const id of ['.', '..']) {
    const err = await rejection(client.replay(id));
    t.type(err, ValidationFailedError, `replay(${JSON.stringify(id)})`);
    t.same([err.code, err.status], ['INVALID_ARGUMENT', 0]);
  }
  t.equal(server.hits, 0, 'nothing was sent');
});

t.test('a baseUrl with a query or a fragment is an options error, not a broken URL', async (t) => {
  // `http://host?x=1` made every call go to `http://host?x=1/api/v1/…`: the query swallowed the path
  for (const baseUrl of ['http://127.0.0.1:8080?tenant=acme', 'https://gate.example.com/acme#frag']) {
    t.throws(() => new GovClient({ baseUrl, apiKey: FAKE_KEY }), ValidationFailedError, baseUrl);
  }
  t.doesNotThrow(
    () => new GovClient({ baseUrl: 'https://gate.example.com/tenants/acme/', apiKey: FAKE_KEY }),
  );
});
