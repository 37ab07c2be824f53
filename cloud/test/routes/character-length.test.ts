/**
 * The agent routes count the characters of a string as the schema they serve says (JSON Schema maxLength:
 * characters, i.e. code points): an agent_name of 100 emoji is 100 characters, within the served limit of
 * 128. Before, the route counted UTF-16 code units ("got string of length 200") and refused what a client
 * had validated against GET /api/v1/agentgate/schema.
 */
import t from 'tap';
import { servedAgentSchema } from '../helpers/cloud-app.js';
import { kernelCloud, post } from '../kernel/kernel-helpers.js';

t.test('register and propose accept astral characters up to the served character limits', async (t) => {
  const cloud = await kernelCloud(t);
  const schema = await servedAgentSchema<{
    registration: { properties: { agent_name: { maxLength: number } } };
  }>(cloud, cloud.a.keys.agent);
  const limit = schema.registration.properties.agent_name.maxLength;
  const registration = (agent_name: string) => ({
    agent_name,
    domain: 'FINANCE',
    capabilities: ['search'],
    agent_version: '1.0.0',
    model_id: 'm-1',
  });
  const fits = await post(
    cloud,
    cloud.a.keys.agent,
    '/api/v1/agentgate/register',
    registration('🤖'.repeat(limit)),
  );
  t.equal(fits.statusCode, 201, `${limit} emoji are ${limit} characters`);
  const over = await post(
    cloud,
    cloud.a.keys.agent,
    '/api/v1/agentgate/register',
    registration('🤖'.repeat(limit + 1)),
  );
  t.equal(over.statusCode, 400);
  t.match(over.json().error.details.issues, [{ path: '/agent_name', message: /got 129 characters/ }]);

  const propose = await post(cloud, cloud.a.keys.agent, '/api/v1/agentgate/propose', {
    lobe_name: fits.json().lobe_name,
    spend_amount: 0,
    tool_call: {
      id: '🆔'.repeat(200),
      tool_name: 'invoice.read',
      arguments: { id: 'INV-1' },
      agent_confidence: 0.9,
      trigger_prompt: 'read the invoice',
    },
  });
  t.equal(propose.statusCode, 200, 'a tool_call.id of 200 characters (400 code units) is within 256');
});
