/**
 * Every route and status over a real TCP port (fetch against `listen({ port: 0 })`), so what inject()
 * shows also holds on the wire: headers, content types, body limits and keep-alive connections.
 */
import t from 'tap';
import {
  EXAMPLE_POLICY,
  registration,
  selfCorrectBody,
  testCloud,
  testTenant,
  transferCall,
} from '../helpers/cloud-app.js';

t.test('each route answers with the expected status and error code on a real port', async (t) => {
  const cloud = await testCloud(t, { bodyLimitBytes: 8192, rateLimit: { max: 1000, timeWindowMs: 60_000 } });
  const limited = await testTenant(cloud.store, 'limited');
  const base = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const { a, b } = cloud;
  const call = async (
    method: string,
    path: string,
    key?: string,
    body?: unknown,
    contentType = 'application/json',
  ) => {
    const headers: Record<string, string> = {};
    if (key) headers.authorization = `Bearer ${key}`;
    if (body !== undefined) headers['content-type'] = contentType;
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    const type = res.headers.get('content-type') ?? '';
    return {
      status: res.status,
      body: type.includes('json') ? JSON.parse(text) : text,
      headers: res.headers,
    };
  };

  const reg = await call('POST', '/api/v1/agentgate/register', a.keys.agent, registration('wire'));
  t.equal(reg.status, 201);
  const lobe = reg.body.lobe_name as string;
  const allowed = await call('POST', '/api/v1/agentgate/propose', a.keys.agent, transferCall(lobe));
  const decisionId = allowed.headers.get('x-pentagate-decision-id');

  const cases: [string, string, string | undefined, unknown, number, string?, string?][] = [
    ['POST', '/api/v1/agentgate/register', a.keys.agent, registration('wire'), 200],
    ['POST', '/api/v1/agentgate/register', a.keys.agent, { agent_name: 'wire' }, 400, 'INVALID_BODY'],
    ['POST', '/api/v1/agentgate/register', a.keys.agent, '{"agent_name":', 400, 'INVALID_JSON'],
    [
      'POST',
      '/api/v1/agentgate/register',
      a.keys.agent,
      'x=1',
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'application/x-www-form-urlencoded',
    ],
    ['POST', '/api/v1/agentgate/register', a.keys.agent, 'x=1', 400, 'INVALID_JSON', 'text/plain'],
    [
      'POST',
      '/api/v1/agentgate/register',
      a.keys.agent,
      { agent_name: 'x'.repeat(9000) },
      413,
      'BODY_TOO_LARGE',
    ],
    ['POST', '/api/v1/agentgate/register', undefined, { agent_name: 'x' }, 401, 'UNAUTHENTICATED'],
    ['POST', '/api/v1/agentgate/register', a.keys.auditor, { agent_name: 'x' }, 403, 'SCOPE_FORBIDDEN'],
    ['POST', '/api/v1/agentgate/propose', a.keys.agent, transferCall(lobe, 5), 200],
    ['POST', '/api/v1/agentgate/propose', b.keys.agent, transferCall(lobe, 5), 404, 'UNKNOWN_LOBE'],
    ['POST', '/api/v1/agentgate/propose', a.keys.agent, { lobe_name: lobe }, 400, 'INVALID_BODY'],
    ['GET', '/api/v1/agentgate/schema', a.keys.agent, undefined, 200],
    [
      'POST',
      '/api/v1/selfcorrect',
      a.keys.agent,
      selfCorrectBody('w1', 0, { intent_domain: 'SALES', tool_name: 'crm.update', tool_args: {} }),
      200,
    ],
    [
      'POST',
      '/api/v1/selfcorrect',
      a.keys.agent,
      selfCorrectBody('w1', 0, { tool_name: 'os.exec', tool_args: {} }),
      403,
    ],
    ['POST', '/api/v1/selfcorrect', a.keys.agent, { agent_id: 'w1' }, 400, 'INVALID_BODY'],
    ['GET', '/api/v1/keys', a.keys.auditor, undefined, 200],
    ['GET', '/api/v1/keys', 'not-a-key', undefined, 401, 'UNAUTHENTICATED'],
    ['GET', `/api/v1/proofs/${decisionId}`, a.keys.auditor, undefined, 200],
    ['GET', `/api/v1/proofs/${decisionId}`, b.keys.auditor, undefined, 404, 'DECISION_NOT_FOUND'],
    ['GET', '/api/v1/proofs/has%20space', a.keys.auditor, undefined, 400, 'INVALID_PARAMS'],
    ['GET', '/api/v1/audit/checkpoint', a.keys.auditor, undefined, 200],
    ['GET', '/api/v1/audit/checkpoint', a.keys.agent, undefined, 403, 'SCOPE_FORBIDDEN'],
    ['GET', '/api/v1/audit/inclusion?index=0', a.keys.auditor, undefined, 200],
    ['GET', '/api/v1/audit/inclusion?index=999999', a.keys.auditor, undefined, 400, 'INVALID_PROOF_RANGE'],
    ['GET', '/api/v1/audit/inclusion?index=abc', a.keys.auditor, undefined, 400, 'INVALID_QUERY'],
    ['GET', '/api/v1/audit/consistency?old=1', a.keys.auditor, undefined, 200],
    ['GET', '/api/v1/audit/consistency?old=999999', a.keys.auditor, undefined, 400, 'INVALID_PROOF_RANGE'],
    ['GET', '/healthz', undefined, undefined, 200],
    ['GET', '/metrics', undefined, undefined, 200],
    ['GET', '/openapi.json', undefined, undefined, 200],
    ['DELETE', '/api/v1/keys', a.keys.admin, undefined, 405, 'METHOD_NOT_ALLOWED'],
    ['DELETE', '/api/v1/nothing-here', a.keys.admin, undefined, 404, 'NOT_FOUND'],
  ];
  for (const [method, path, key, body, status, code, contentType] of cases) {
    const res = await call(method, path, key, body, contentType);
    t.equal(res.status, status, `${method} ${path} → ${status}`);
    if (code) t.equal(res.body?.error?.code, code, `${method} ${path} → ${code}`);
  }

  // 429 on the wire: a tenant whose key has used up its budget of requests
  const limitedCloud = await testCloud(t, {
    store: cloud.store,
    ownsStore: false,
    rateLimit: { max: 2, timeWindowMs: 60_000 },
    policyText: EXAMPLE_POLICY,
  });
  const limitedBase = await limitedCloud.app.listen({ port: 0, host: '127.0.0.1' });
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) {
    statuses.push(
      (
        await fetch(`${limitedBase}/api/v1/keys`, {
          headers: { authorization: `Bearer ${limited.keys.auditor}` },
        })
      ).status,
    );
  }
  t.same(statuses, [200, 200, 429]);
});
