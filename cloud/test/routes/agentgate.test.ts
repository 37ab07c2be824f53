/**
 * The agentgate routes through inject(): register, propose, schema and selfcorrect — each status and each
 * error code, with proofs checked by the offline verifier against the keys the server publishes.
 */
import { TrustStore, fromGovernanceToken } from '@pentagate/crypto';
import { AGENT_DOMAIN_NAMES } from '@pentagate/protocol';
import { verifyGovernanceToken } from '@pentagate/verifier';
import t from 'tap';
import { bearer, registerLobe, testCloud, transferCall } from '../helpers/cloud-app.js';

async function trustOf(cloud: Awaited<ReturnType<typeof testCloud>>): Promise<TrustStore> {
  const res = await cloud.app.inject({
    method: 'GET',
    url: '/api/v1/keys',
    headers: bearer(cloud.a.keys.auditor),
  });
  return TrustStore.fromDocument(res.json(), 'GET /api/v1/keys');
}

t.test('register', async (t) => {
  const cloud = await testCloud(t);
  const post = (key: string, payload: unknown) =>
    cloud.app.inject({
      method: 'POST',
      url: '/api/v1/agentgate/register',
      headers: bearer(key),
      payload: payload as object,
    });

  t.test('creates a lobe (201) and returns the same one for the same name and version (200)', async (t) => {
    const body = {
      agent_name: 'treasury bot',
      version: '2.1',
      domain: 'FINANCE',
      capabilities: ['payments'],
    };
    const first = await post(cloud.a.keys.agent, body);
    t.equal(first.statusCode, 201);
    t.same(first.json(), { lobe_name: 'treasury-bot@2.1', propose_endpoint: '/api/v1/agentgate/propose' });
    const size = await cloud.store.auditSize();
    const again = await post(cloud.a.keys.agent, body);
    t.equal(again.statusCode, 200);
    t.same(again.json(), first.json());
    t.equal(await cloud.store.auditSize(), size, 'a repeat writes nothing');
    const v2 = await post(cloud.a.keys.agent, { ...body, version: '2.2' });
    t.equal(v2.json().lobe_name, 'treasury-bot@2.2', 'a new version is a new lobe');
  });

  t.test('gives a colliding cleaned name a generated lobe', async (t) => {
    const one = await post(cloud.a.keys.agent, { agent_name: 'x y', version: '1', domain: 'GENERAL' });
    const two = await post(cloud.a.keys.agent, { agent_name: 'x-y', version: '1', domain: 'GENERAL' });
    t.equal(one.json().lobe_name, 'x-y@1');
    t.match(two.json().lobe_name, /^lobe_[0-9A-Z]{26}$/);
  });

  t.test('writes an agent.registered audit entry for a new agent', async (t) => {
    const res = await post(cloud.a.keys.admin, {
      agent_name: 'auditor-visible',
      version: '1',
      domain: 'LEGAL',
    });
    t.equal(res.statusCode, 201, 'admin keys may register');
    const size = await cloud.store.auditSize();
    const [last] = await cloud.store.auditEntries(size - 1, size);
    t.equal(last?.entry.type, 'agent.registered');
    t.equal(last?.entry.tenantId, cloud.a.id);
    t.match(last?.entry.data, { name: 'auditor-visible', domain: 'LEGAL', lobeName: 'auditor-visible@1' });
  });

  t.test('checks the domain against the documented list, which includes FINANCE', async (t) => {
    t.ok(AGENT_DOMAIN_NAMES.includes('FINANCE'));
    const res = await post(cloud.a.keys.agent, { agent_name: 'a', version: '1', domain: 'CASINO' });
    t.equal(res.statusCode, 400);
    t.equal(res.json().error.code, 'INVALID_BODY');
    t.match(res.json().error.message, /\/domain/);
  });

  t.test(
    'refuses missing fields, unknown fields and mistyped fields with every problem listed',
    async (t) => {
      const res = await post(cloud.a.keys.agent, { agent_name: 7, extra: true });
      t.equal(res.statusCode, 400);
      const paths = res.json().error.details.issues.map((i: { path: string }) => i.path);
      t.ok(paths.includes('/agent_name') && paths.includes('/version') && paths.includes('/domain'));
      t.ok(paths.includes('/extra'), 'unknown properties are refused, not stripped');
    },
  );

  t.test('refuses keys whose scope does not open it', async (t) => {
    for (const scope of ['auditor', 'operator'] as const) {
      const res = await post(cloud.a.keys[scope], { agent_name: 'a', version: '1', domain: 'GENERAL' });
      t.equal(res.statusCode, 403, scope);
      t.equal(res.json().error.code, 'SCOPE_FORBIDDEN');
    }
  });
});

t.test('propose', async (t) => {
  const cloud = await testCloud(t);
  const lobe = await registerLobe(cloud, cloud.a);
  const trust = await trustOf(cloud);
  const propose = (payload: unknown, key = cloud.a.keys.agent) =>
    cloud.app.inject({
      method: 'POST',
      url: '/api/v1/agentgate/propose',
      headers: bearer(key),
      payload: payload as object,
    });

  t.test('approves a compliant call with a governance token the offline verifier accepts', async (t) => {
    const res = await propose(transferCall(lobe));
    t.equal(res.statusCode, 200);
    const body = res.json();
    t.equal(body.approved, true);
    t.same(Object.keys(body.tiers).sort(), ['tier1', 'tier2', 'tier3']);
    t.same(Object.keys(body.tiers.tier1).sort(), ['jurisdiction', 'zkInference']);
    t.same(Object.keys(body.tiers.tier2).sort(), ['arbitration', 'proofFirewall']);
    t.same(Object.keys(body.tiers.tier3).sort(), ['economic', 'simulation']);
    t.same(body.violations, []);
    const report = verifyGovernanceToken(body.governance_token, trust);
    t.equal(report.valid, true, report.failures.join('; '));
    const envelope = fromGovernanceToken(body.governance_token);
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'));
    t.equal(statement.predicate.outcome, 'ALLOW');
    t.equal(statement.predicate.tenantId, cloud.a.id);
    t.equal(statement.predicate.reservedBudget, 120);
    t.equal(statement.predicate.decisionId, res.headers['x-pentagate-decision-id']);
  });

  t.test('vetoes a denied tool with violations and no token', async (t) => {
    const res = await propose({ lobe_name: lobe, tool_name: 'shell.exec', arguments: { cmd: 'ls' } });
    t.equal(res.statusCode, 200);
    const body = res.json();
    t.equal(body.approved, false);
    t.notOk('governance_token' in body);
    t.ok(body.violations.some((v: { code: string }) => v.code === 'INVARIANT.TOOL_DENIED'));
    const decision = await cloud.store.getDecision(
      cloud.a.id,
      String(res.headers['x-pentagate-decision-id']),
    );
    t.equal(decision?.outcome, 'DENY', 'the veto is a stored, signed decision too');
  });

  t.test('answers an unknown lobe with 404 UNKNOWN_LOBE and writes only the refusal', async (t) => {
    const size = await cloud.store.auditSize();
    const res = await propose(transferCall('no-such-lobe'));
    t.equal(res.statusCode, 404);
    t.equal(res.json().error.code, 'UNKNOWN_LOBE');
    t.equal(await cloud.store.auditSize(), size + 1);
    const [entry] = await cloud.store.auditEntries(size, size + 1);
    t.equal(entry?.entry.type, 'refusal');
    t.match(entry?.entry.data, { status: 404, code: 'UNKNOWN_LOBE', route: '/api/v1/agentgate/propose' });
  });

  t.test("answers another tenant's lobe exactly like an unknown one", async (t) => {
    const res = await propose(transferCall(lobe), cloud.b.keys.agent);
    t.equal(res.statusCode, 404);
    t.equal(res.json().error.code, 'UNKNOWN_LOBE');
  });

  t.test('refuses a spend beyond the budget with ECONOMY.BUDGET_EXCEEDED', async (t) => {
    const res = await propose({ ...transferCall(lobe, 5000), arguments: { recipient: 'x', amount: 5000 } });
    const body = res.json();
    t.equal(body.approved, false);
    t.ok(body.violations.some((v: { code: string }) => v.code === 'ECONOMY.BUDGET_EXCEEDED'));
  });
});

t.test('schema', async (t) => {
  const cloud = await testCloud(t);
  const res = await cloud.app.inject({
    method: 'GET',
    url: '/api/v1/agentgate/schema',
    headers: bearer(cloud.a.keys.agent),
  });
  t.equal(res.statusCode, 200);
  const body = res.json();
  t.equal(body.tool_call.type, 'object');
  t.ok(body.tool_call.properties.spend_amount, 'the tool call schema lists its fields');
  t.ok(body.registration.properties.domain);
  t.ok(body.verdict.properties.tiers);
  t.ok(body.self_correct.request && body.self_correct.cleared && body.self_correct.veto);
  for (const tier of ['zkInference', 'jurisdiction']) t.ok(body.tiers.tier1[tier].about);
  t.ok(body.domains.FINANCE);
  t.ok(body.violation_codes['ECONOMY.BUDGET_EXCEEDED']);
  const anon = await cloud.app.inject({ method: 'GET', url: '/api/v1/agentgate/schema' });
  t.equal(anon.statusCode, 401);
});

t.test('selfcorrect', async (t) => {
  const cloud = await testCloud(t);
  const trust = await trustOf(cloud);
  const selfcorrect = (payload: unknown, key = cloud.a.keys.agent) =>
    cloud.app.inject({
      method: 'POST',
      url: '/api/v1/selfcorrect',
      headers: bearer(key),
      payload: payload as object,
    });
  const action = (spend: number) => ({
    tool_name: 'payments.transfer',
    arguments: { recipient: 'ACME GmbH', amount: spend },
    spend_amount: spend,
    department: 'finance',
  });

  t.test('registers an unknown agent_id on first contact and clears a compliant action (200)', async (t) => {
    const res = await selfcorrect({ agent_id: 'invoice-runner', action: action(100) });
    t.equal(res.statusCode, 200);
    const body = res.json();
    t.equal(body.type, 'SERVICE_GOVERNANCE_CLEARED');
    t.equal(verifyGovernanceToken(body.governance_token, trust).valid, true);
    t.ok(body.summary.length > 0);
    const agent = await cloud.store.findAgentById(cloud.a.id, 'invoice-runner');
    t.equal(agent?.domain, 'GENERAL');
    t.equal(agent?.lobeName, 'invoice-runner');
  });

  t.test(
    'vetoes (403) with remediation computed from the failed rule; the remediated action is cleared',
    async (t) => {
      const veto = await selfcorrect({ agent_id: 'payout-bot', domain: 'FINANCE', action: action(1500) });
      t.equal(veto.statusCode, 403);
      const body = veto.json();
      t.equal(body.type, 'SERVICE_GOVERNANCE_VETO');
      t.ok(body.violations.some((v: { code: string }) => v.code === 'ECONOMY.BUDGET_EXCEEDED'));
      const step = body.remediation.find((r: string) => /spend/.test(r)) as string;
      t.match(step, /1000/, 'the remediation names the remaining budget');
      const limit = Number(/(\d+(?:\.\d+)?) or less/.exec(step)?.[1]);
      t.equal(limit, 1000);
      const retry = await selfcorrect({ agent_id: 'payout-bot', action: action(limit) });
      t.equal(retry.statusCode, 200, 'the remediated action is cleared');
      t.equal(retry.json().type, 'SERVICE_GOVERNANCE_CLEARED');
    },
  );

  t.test('refuses a lobe_name that belongs to another agent of the tenant', async (t) => {
    const lobe = await registerLobe(cloud, cloud.a, 'lobe-owner');
    const res = await selfcorrect({ agent_id: 'squatter', lobe_name: lobe, action: action(1) });
    t.equal(res.statusCode, 400);
    t.equal(res.json().error.code, 'INVALID_BODY');
    t.equal(await cloud.store.findAgentById(cloud.a.id, 'squatter'), undefined);
  });

  t.test('keeps agents of different tenants apart even with the same agent_id', async (t) => {
    const res = await selfcorrect(
      { agent_id: 'invoice-runner', domain: 'SALES', action: action(5) },
      cloud.b.keys.agent,
    );
    t.equal(res.statusCode, 200);
    t.equal((await cloud.store.findAgentById(cloud.b.id, 'invoice-runner'))?.domain, 'SALES');
    t.equal((await cloud.store.findAgentById(cloud.a.id, 'invoice-runner'))?.domain, 'GENERAL');
  });

  t.test('refuses a malformed body (400) and a wrong scope (403)', async (t) => {
    const bad = await selfcorrect({ agent_id: 'x', action: { tool_name: 'a' } });
    t.equal(bad.statusCode, 400);
    t.match(bad.json().error.message, /\/action\/arguments/);
    const scope = await selfcorrect({ agent_id: 'x', action: action(1) }, cloud.a.keys.auditor);
    t.equal(scope.statusCode, 403);
    t.equal(scope.json().error.code, 'SCOPE_FORBIDDEN');
  });
});

t.test('refuses every tool call when no policy is loaded (fail closed)', async (t) => {
  const cloud = await testCloud(t, { policyText: false });
  const lobe = await registerLobe(cloud, cloud.a);
  const res = await cloud.app.inject({
    method: 'POST',
    url: '/api/v1/agentgate/propose',
    headers: bearer(cloud.a.keys.agent),
    payload: transferCall(lobe),
  });
  t.equal(res.json().approved, false);
  t.ok(res.json().violations.some((v: { code: string }) => v.code === 'INVARIANT.NO_POLICY'));
  const decision = await cloud.store.getDecision(cloud.a.id, String(res.headers['x-pentagate-decision-id']));
  t.equal(decision?.policyDigest, null);
});
