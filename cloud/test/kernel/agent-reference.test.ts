/**
 * The specification types the agent a caller speaks for as a plain string (§2.1 `context.agentId`, §2.5
 * `action.agent_id`: "agent identifier; unknown agents are registered on first contact"). Names an agent
 * builder would write — `acme/billing`, `Billing Agent`, `Zoë` — were refused with 400 because they are not
 * in `[A-Za-z0-9._:@-]`; now any printable name is accepted, met on first contact under that name (the
 * stored record gets an id made from it), and found again by the same name on the next call.
 */
import t from 'tap';
import { get, kernelCloud, post } from './kernel-helpers.js';

const NAMES = ['acme/billing', 'Billing Agent', 'Zoë 🤖'];

t.test('selfcorrect and authorize accept any printable agent name and keep it one agent', async (t) => {
  const cloud = await kernelCloud(t);
  for (const name of NAMES) {
    const action = {
      agent_id: name,
      intent_domain: 'FINANCE',
      tool_name: 'invoice.read',
      tool_args: { id: `INV-${name.length}` },
      confidence: 0.9,
    };
    const first = await post(cloud, cloud.a.keys.agent, '/api/v1/selfcorrect', { action });
    t.equal(first.statusCode, 200, `${name}: cleared`);
    t.equal(first.json().type, 'SERVICE_GOVERNANCE_CLEARED');
    const decided = await post(cloud, cloud.a.keys.agent, '/api/v1/kernel/authorize', {
      type: 'data:read',
      payload: { table: 'invoices' },
      context: { agentId: name, confidenceScore: 0.9 },
    });
    t.equal(decided.statusCode, 200, `${name}: authorize decides`);
    t.equal(decided.json().status, 'ALLOW');
    // the signed statement names the agent record; both routes must reach the same one
    const agentOf = (payload: string, encoding: BufferEncoding) =>
      JSON.parse(Buffer.from(payload, encoding).toString('utf8')).predicate.agentId as string;
    const tokenPayload = (first.json().governance_token as string).split('.')[2]!;
    t.equal(
      agentOf(decided.json().proof.envelope.payload, 'base64'),
      agentOf(tokenPayload, 'base64url'),
      `${name}: one agent on both routes`,
    );

    const events = await get(
      cloud,
      cloud.a.keys.agent,
      `/api/v1/kernel/audit/events?type=decision&agentId=${encodeURIComponent(name)}`,
    );
    t.equal(events.statusCode, 200, `${name}: the audit events filter takes the same name`);
    t.equal(events.json().events.length, 2, `${name}: both decisions`);
  }
});

t.test('a name with a control character or only spaces is still refused', async (t) => {
  const cloud = await kernelCloud(t);
  for (const agentId of ['bad\nname', '   ', '']) {
    const res = await post(cloud, cloud.a.keys.agent, '/api/v1/kernel/authorize', {
      type: 'data:read',
      payload: {},
      context: { agentId, confidenceScore: 0.9 },
    });
    t.equal(res.statusCode, 400, JSON.stringify(agentId));
  }
});
