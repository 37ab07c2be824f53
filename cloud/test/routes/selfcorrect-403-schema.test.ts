/**
 * Every 403 body of POST /api/v1/selfcorrect fits the schema the gate serves for it — both the schema route's
 * `self_correct.veto` (specification §4: "GET /api/v1/agentgate/schema → the schema of the adapter") and
 * /openapi.json. A refusal before any decision (a key of another scope) is a brief without `decision_id`
 * or `violation_details` and with the error body beside it; before, both documents described every 403 as
 * the decided veto (both fields required, `error` not allowed), so a client that validated a 403 against
 * the served schema rejected the refusal.
 */
import t from 'tap';
import { servedAgentSchema } from '../helpers/cloud-app.js';
import { kernelCloud, post } from '../kernel/kernel-helpers.js';

interface Shape {
  required?: string[];
  properties?: Record<string, unknown>;
  additionalProperties?: boolean;
  anyOf?: Shape[];
  oneOf?: Shape[];
}

/** The top-level members a body must and may have under `shape` (one of its alternatives). */
function fits(shape: Shape, body: Record<string, unknown>): boolean {
  const alternatives = shape.anyOf ?? shape.oneOf;
  if (alternatives) return alternatives.some((s) => fits(s, body));
  const keys = Object.keys(body);
  const required = (shape.required ?? []).every((k) => keys.includes(k));
  const allowed =
    shape.additionalProperties !== false || keys.every((k) => Object.hasOwn(shape.properties ?? {}, k));
  return required && allowed;
}

t.test("every 403 of selfcorrect fits the served veto schema and the OpenAPI document's 403", async (t) => {
  const cloud = await kernelCloud(t);
  const served = await servedAgentSchema<{ self_correct: { veto: Shape } }>(cloud, cloud.a.keys.agent);
  const openapi = (await cloud.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
    paths: Record<
      string,
      { post: { responses: Record<string, { content: Record<string, { schema: Shape }> }> } }
    >;
  };
  const documented =
    openapi.paths['/api/v1/selfcorrect']!.post.responses['403']!.content['application/json']!.schema;

  const action = {
    agent_id: 'sc-bot',
    intent_domain: 'FINANCE',
    tool_name: 'invoice.read',
    tool_args: { id: 'INV-1' },
    confidence: 0.9,
  };
  const refusal = await post(cloud, cloud.a.keys.auditor, '/api/v1/selfcorrect', { action });
  const veto = await post(cloud, cloud.a.keys.agent, '/api/v1/selfcorrect', {
    action: { ...action, tool_name: 'shell.exec' },
  });
  for (const [name, res] of [
    ['refusal (SCOPE_FORBIDDEN)', refusal],
    ['decided veto', veto],
  ] as const) {
    t.equal(res.statusCode, 403, name);
    const body = res.json() as Record<string, unknown>;
    t.equal(body.type, 'SERVICE_GOVERNANCE_VETO', name);
    t.ok(fits(served.self_correct.veto, body), `${name} fits the schema route's self_correct.veto`);
    t.ok(fits(documented, body), `${name} fits the OpenAPI 403`);
  }
});
