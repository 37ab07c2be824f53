/**
 * Bad input: every kind gets a 4xx JSON error naming the problem, and the only
 * write is the refusal's audit entry. Also the mapping of server-side faults (500, 503).
 */
import { gzipSync } from 'node:zlib';
import type { InjectOptions } from 'fastify';
import t from 'tap';
import { toApiError } from '../../src/app/error-handler.js';
import { MAX_AGENT_BODY_VALUES } from '../../src/app/json-body.js';
import { API_ERRORS } from '../../src/app/errors.js';
import { StoreError } from '../../src/store/store-error.js';
import { bearer, registerLobe, registration, testCloud, transferCall } from '../helpers/cloud-app.js';
import { jsonValueCount } from '../helpers/json-values.js';

t.test('each refusal is a JSON error with a fitting 4xx and exactly one refusal audit entry', async (t) => {
  const cloud = await testCloud(t, { bodyLimitBytes: 4096 });
  const lobe = await registerLobe(cloud, cloud.a);
  const key = cloud.a.keys.agent;
  const json = { 'content-type': 'application/json' };
  const cases: {
    name: string;
    request: InjectOptions;
    status: number;
    code: string;
    message: RegExp;
  }[] = [
    {
      name: 'malformed JSON',
      request: {
        method: 'POST',
        url: '/api/v1/agentgate/propose',
        headers: { ...bearer(key), ...json },
        payload: '{"lobe_name": ',
      },
      status: 400,
      code: 'INVALID_JSON',
      message: /expected JSON, got malformed text/,
    },
    {
      name: 'an empty body',
      request: {
        method: 'POST',
        url: '/api/v1/agentgate/propose',
        headers: { ...bearer(key), ...json },
        payload: '',
      },
      status: 400,
      code: 'INVALID_JSON',
      message: /empty/,
    },
    {
      // JSON.parse's own words for it were "malformed text (Unexpected end of JSON input)"
      name: 'a body of only whitespace',
      request: {
        method: 'POST',
        url: '/api/v1/selfcorrect',
        headers: { ...bearer(key), ...json },
        payload: ' \r\n\t ',
      },
      status: 400,
      code: 'INVALID_JSON',
      message: /^request body: expected JSON, got only whitespace$/,
    },
    {
      name: 'an integer JSON.parse would round',
      request: {
        method: 'POST',
        url: '/api/v1/agentgate/propose',
        headers: { ...bearer(key), ...json },
        payload: `{"lobe_name":"${lobe}","spend_amount":0,"tool_call":{"id":"c1","tool_name":"t","arguments":{"n":123456789012345678901},"agent_confidence":1,"trigger_prompt":""}}`,
      },
      status: 400,
      code: 'INVALID_JSON',
      message: /lose precision/,
    },
    {
      name: 'a member name given twice',
      request: {
        method: 'POST',
        url: '/api/v1/agentgate/propose',
        headers: { ...bearer(key), ...json },
        payload: `{"lobe_name":"${lobe}","tool_name":"t","spend_amount":1,"spend_amount":0,"arguments":{}}`,
      },
      status: 400,
      code: 'INVALID_JSON',
      message: /"spend_amount" again/,
    },
    {
      name: 'a __proto__ key',
      request: {
        method: 'POST',
        url: '/api/v1/agentgate/propose',
        headers: { ...bearer(key), ...json },
        payload: `{"lobe_name":"${lobe}","spend_amount":0,"tool_call":{"id":"c1","tool_name":"t","arguments":{"__proto__":{"admin":true}},"agent_confidence":1,"trigger_prompt":""}}`,
      },
      status: 400,
      code: 'INVALID_JSON',
      message: /__proto__/,
    },
    {
      name: 'a body over the limit',
      request: {
        method: 'POST',
        url: '/api/v1/agentgate/propose',
        headers: { ...bearer(key), ...json },
        payload: JSON.stringify(transferCall(lobe, 1, { trigger_prompt: 'x'.repeat(5000) })),
      },
      status: 413,
      code: 'BODY_TOO_LARGE',
      message: /too large|limit/i,
    },
    {
      name: 'a body of another media type',
      request: {
        method: 'POST',
        url: '/api/v1/agentgate/register',
        headers: { ...bearer(key), 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'agent_name=x',
      },
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: /expected Content-Type application\/json, got "application\/x-www-form-urlencoded"/,
    },
    {
      name: 'a text/plain body that is not JSON',
      request: {
        method: 'POST',
        url: '/api/v1/agentgate/register',
        headers: { ...bearer(key), 'content-type': 'text/plain' },
        payload: 'agent_name=x',
      },
      status: 400,
      code: 'INVALID_JSON',
      message: /request body/,
    },
    {
      name: 'a gzip-compressed body',
      request: {
        method: 'POST',
        url: '/api/v1/agentgate/register',
        headers: { ...bearer(key), ...json, 'content-encoding': 'gzip' },
        payload: gzipSync(JSON.stringify(registration('gzipped'))),
      },
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: /Content-Encoding "gzip" is not supported/,
    },
    {
      name: 'a mistyped field',
      request: {
        method: 'POST',
        url: '/api/v1/agentgate/propose',
        headers: bearer(key),
        payload: { ...transferCall(lobe), spend_amount: '12' },
      },
      status: 400,
      code: 'INVALID_BODY',
      message: /\/spend_amount: expected number, got "12"/,
    },
    {
      name: 'no Authorization header',
      request: { method: 'POST', url: '/api/v1/agentgate/propose', payload: transferCall(lobe) },
      status: 401,
      code: 'UNAUTHENTICATED',
      message: /got none/,
    },
    {
      name: 'a Basic Authorization header',
      request: { method: 'GET', url: '/api/v1/keys', headers: { authorization: 'Basic dXNlcjpwYXNz' } },
      status: 401,
      code: 'UNAUTHENTICATED',
      message: /Bearer pgk_/,
    },
    {
      name: 'an unknown key',
      request: { method: 'GET', url: '/api/v1/keys', headers: bearer(`pgk_${'A'.repeat(43)}`) },
      status: 401,
      code: 'UNAUTHENTICATED',
      message: /not known/,
    },
    {
      name: 'a wrong scope',
      request: {
        method: 'POST',
        url: '/api/v1/agentgate/propose',
        headers: bearer(cloud.a.keys.auditor),
        payload: transferCall(lobe),
      },
      status: 403,
      code: 'SCOPE_FORBIDDEN',
      message: /scope agent or admin, got a key of scope auditor/,
    },
    {
      name: 'an unknown route',
      request: { method: 'GET', url: '/api/v1/nothing-here?x=1' },
      status: 404,
      code: 'NOT_FOUND',
      message: /no route GET \/api\/v1\/nothing-here$/,
    },
    {
      name: 'a malformed path parameter',
      request: { method: 'GET', url: '/api/v1/proofs/bad%20id', headers: bearer(cloud.a.keys.auditor) },
      status: 400,
      code: 'INVALID_PARAMS',
      message: /\/decisionId/,
    },
    {
      name: 'a malformed query',
      request: {
        method: 'GET',
        url: '/api/v1/audit/inclusion?index=-1',
        headers: bearer(cloud.a.keys.auditor),
      },
      status: 400,
      code: 'INVALID_QUERY',
      message: /\/index/,
    },
  ];
  for (const [i, c] of cases.entries()) {
    const decisionsBefore = (await cloud.store.recentCalls(cloud.a.id, 'any', 0, 10)).length;
    const size = await cloud.store.auditSize();
    // each case from an address of its own: without a valid key, only an address's first refusal of a
    // window is written at once (the rest are counted, see the flood test)
    const res = await cloud.app.inject({ ...c.request, remoteAddress: `192.0.2.${i + 1}` });
    t.equal(res.statusCode, c.status, `${c.name}: status`);
    t.match(res.headers['content-type'], /application\/json/, `${c.name}: JSON`);
    const body = res.json();
    t.equal(body.error.code, c.code, `${c.name}: code`);
    t.match(body.error.message, c.message, `${c.name}: message names the problem`);
    t.equal(
      API_ERRORS[c.code as keyof typeof API_ERRORS].status,
      c.status,
      `${c.name}: the vocabulary agrees`,
    );
    t.equal(await cloud.store.auditSize(), size + 1, `${c.name}: one audit entry`);
    const [entry] = await cloud.store.auditEntries(size, size + 1);
    t.equal(entry?.entry.type, 'refusal', `${c.name}: it is the refusal`);
    t.equal(entry?.entry.data.code, c.code);
    t.equal((await cloud.store.recentCalls(cloud.a.id, 'any', 0, 10)).length, decisionsBefore);
  }
});

t.test('a revoked key is refused with its own message', async (t) => {
  const cloud = await testCloud(t);
  // by scope, not by place: keys issued in one millisecond list in the order of their ids' random part
  const agentKey = (await cloud.store.listApiKeys(cloud.a.id)).find((k) => k.scope === 'agent');
  await cloud.store.revokeApiKey(cloud.a.id, agentKey!.id, Date.now());
  const res = await cloud.app.inject({
    method: 'GET',
    url: '/api/v1/keys',
    headers: bearer(cloud.a.keys.agent),
  });
  t.equal(res.statusCode, 401);
  t.match(res.json().error.message, /revoked/);
});

t.test(
  'rate limits per API key with 429 RATE_LIMITED, counted not written, other keys unaffected',
  async (t) => {
    const cloud = await testCloud(t, { rateLimit: { max: 3, timeWindowMs: 60_000 } });
    const get = (key: string) =>
      cloud.app.inject({ method: 'GET', url: '/api/v1/keys', headers: bearer(key) });
    for (let i = 0; i < 3; i++) t.equal((await get(cloud.a.keys.auditor)).statusCode, 200);
    const size = await cloud.store.auditSize();
    const limited = await get(cloud.a.keys.auditor);
    t.equal(limited.statusCode, 429);
    t.equal(limited.json().error.code, 'RATE_LIMITED');
    t.ok(limited.headers['retry-after'], 'says when to retry');
    t.equal(await cloud.store.auditSize(), size + 1, "the address's first refusal of the window is written");
    t.equal((await get(cloud.a.keys.auditor)).statusCode, 429);
    t.equal(
      await cloud.store.auditSize(),
      size + 1,
      'the next one is counted for the window entry, not written',
    );
    t.equal((await get(cloud.a.keys.admin)).statusCode, 200, 'another key has its own budget');
  },
);

t.test(
  'maps server-side faults: a store failure to 503, anything unknown to 500 without internals',
  async (t) => {
    t.equal(toApiError(new StoreError('disk full')).statusCode, 503);
    t.equal(toApiError(new StoreError('disk full')).message, 'the store could not complete the request');
    const unknown = toApiError(new TypeError('x is undefined'));
    t.equal(unknown.statusCode, 500);
    t.notMatch(unknown.message, /x is undefined/);
    t.equal(toApiError(Object.assign(new Error('nope'), { statusCode: 413 })).code, 'BODY_TOO_LARGE');
    t.equal(
      toApiError(Object.assign(new Error('v'), { statusCode: 400, validationContext: 'body' })).code,
      'INVALID_BODY',
    );
  },
);

t.test('a refusal that cannot be audited is answered 503 (fail closed)', async (t) => {
  const cloud = await testCloud(t);
  const original = cloud.store.appendAudit.bind(cloud.store);
  cloud.store.appendAudit = async () => {
    throw new StoreError('disk full');
  };
  t.teardown(() => {
    cloud.store.appendAudit = original;
  });
  const res = await cloud.app.inject({ method: 'GET', url: '/api/v1/keys' });
  t.equal(res.statusCode, 503);
  t.equal(res.json().error.code, 'STORE_UNAVAILABLE');
});

t.test('serves /healthz, /metrics and /openapi.json without a key', async (t) => {
  const cloud = await testCloud(t);
  const health = await cloud.app.inject({ method: 'GET', url: '/healthz' });
  t.same(health.json(), { status: 'ok' });
  await cloud.app.inject({ method: 'GET', url: '/api/v1/keys', headers: bearer(cloud.a.keys.auditor) });
  const metrics = await cloud.app.inject({ method: 'GET', url: '/metrics' });
  t.equal(metrics.statusCode, 200);
  t.match(
    metrics.body,
    /pentagate_http_requests_total\{route="\/api\/v1\/keys",method="GET",status="200"\} 1/,
  );
  await cloud.app.inject({ method: 'GET', url: '/api/v1/keys', headers: bearer(cloud.a.keys.auditor) });
  const again = (await cloud.app.inject({ method: 'GET', url: '/metrics' })).body;
  t.match(again, /pentagate_http_requests_total\{route="\/api\/v1\/keys",method="GET",status="200"\} 2/);
  t.match(again, /pentagate_http_request_duration_seconds_count\{route="\/api\/v1\/keys"\} 2/);
  const openapi = await cloud.app.inject({ method: 'GET', url: '/openapi.json' });
  const doc = openapi.json();
  t.equal(doc.openapi, '3.1.0');
  for (const path of [
    '/api/v1/agentgate/register',
    '/api/v1/agentgate/propose',
    '/api/v1/agentgate/schema',
    '/api/v1/selfcorrect',
    '/api/v1/keys',
    '/api/v1/proofs/{decisionId}',
    '/api/v1/audit/checkpoint',
    '/api/v1/audit/inclusion',
    '/api/v1/audit/consistency',
  ]) {
    t.ok(doc.paths[path], `OpenAPI documents ${path}`);
  }
});

t.test(
  'an agent route refuses more members than it takes before any work, with one refusal entry',
  async (t) => {
    const cloud = await testCloud(t);
    const lobe = await registerLobe(cloud, cloud.a);
    const key = cloud.a.keys.agent;
    const callWith = (members: number) => {
      // the call's own members (lobe_name, tool_call, …) count too: fill the arguments up to `members`
      const base = transferCall(lobe, 1);
      const own = jsonValueCount({ ...base, tool_call: { ...base.tool_call, arguments: {} } });
      const args: Record<string, number> = {};
      for (let i = 0; i < members - own; i++) args[`k${i}`] = i;
      return JSON.stringify({ ...base, tool_call: { ...base.tool_call, arguments: args } });
    };
    const size = await cloud.store.auditSize();
    const over = await cloud.app.inject({
      method: 'POST',
      url: '/api/v1/agentgate/propose',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: callWith(MAX_AGENT_BODY_VALUES + 1),
    });
    t.equal(over.statusCode, 413);
    t.equal(over.json().error.code, 'BODY_TOO_LARGE');
    t.match(over.json().error.message, /expected at most 10000 object members and array elements in all/);
    t.equal(await cloud.store.auditSize(), size + 1, 'one audit entry');
    const [entry] = await cloud.store.auditEntries(size, size + 1);
    t.equal(entry?.entry.type, 'refusal');
    // at the limit the call is governed (and denied: more strings than the screen reads, keys included)
    const at = await cloud.app.inject({
      method: 'POST',
      url: '/api/v1/agentgate/propose',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: callWith(MAX_AGENT_BODY_VALUES),
    });
    t.equal(at.statusCode, 200);
    t.equal(at.json().approved, false);
    t.match(at.json().reason, /unscannable/);
  },
);

t.test('a POST sent with no body at all is told so, not that its body is null', async (t) => {
  // fetch(url, { method: 'POST' }) with the body forgotten: no Content-Type, no bytes
  const cloud = await testCloud(t);
  const base = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  for (const path of ['/api/v1/agentgate/register', '/api/v1/agentgate/propose', '/api/v1/selfcorrect']) {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: bearer(cloud.a.keys.agent) });
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    t.equal(res.status, 400, path);
    t.equal(error.code, 'INVALID_JSON', path);
    t.equal(error.message, 'request body: expected JSON (Content-Type application/json), got no body', path);
  }
  // the JSON literal null is a body: the schema says what is wrong with it
  const literal = await fetch(`${base}/api/v1/selfcorrect`, {
    method: 'POST',
    headers: { ...bearer(cloud.a.keys.agent), 'content-type': 'application/json' },
    body: 'null',
  });
  t.equal(literal.status, 400);
  t.match(
    ((await literal.json()) as { error: { message: string } }).error.message,
    /expected object, got null/,
  );
});
