/**
 * A tool name is matched by the policy's globs as written, and an agent's tool router may treat its `/`
 * segments as a path (MCP-style `server/tool` names, an HTTP router): `os.exec/../os.exec` or `os.exec/`
 * is then `os.exec` — which the example policy denies — yet no glob named it, so it was approved.
 * Names with an empty, `.` or `..` segment, or a trailing `/`, are refused on every route.
 */
import t from 'tap';
import { registerLobe, selfCorrectBody, transferCall } from '../helpers/cloud-app.js';
import { kernelCloud, post } from '../kernel/kernel-helpers.js';

const DOT_FORMS = ['os.exec/../os.exec', 'os.exec/', 'os.exec/.', 'tools//os.exec', 'x/./os.exec', 'x/..'];
// `_internal_search`: function-calling APIs (`^[a-zA-Z0-9_-]{1,64}$`) and MCP allow a leading `_`
const FINE = ['fs/write', 'crm:update', 'mcp/files/.hidden', 'a.b/c..d', '_internal_search'];

t.test('propose and selfcorrect refuse a tool name with a dot or empty segment', async (t) => {
  const cloud = await kernelCloud(t);
  const lobe = await registerLobe(cloud, cloud.a);
  for (const tool_name of DOT_FORMS) {
    const propose = await post(
      cloud,
      cloud.a.keys.agent,
      '/api/v1/agentgate/propose',
      transferCall(lobe, 0, { tool_name, arguments: { c: 'ls' } }),
    );
    t.equal(propose.statusCode, 400, `propose ${tool_name}`);
    t.match(propose.json().error.details.issues[0].path, '/tool_call/tool_name');
    const self = await post(
      cloud,
      cloud.a.keys.agent,
      '/api/v1/selfcorrect',
      selfCorrectBody('sc-bot', 0, { tool_name, tool_args: { c: 'ls' } }),
    );
    t.equal(self.statusCode, 400, `selfcorrect ${tool_name}`);
  }
  for (const tool_name of FINE) {
    const res = await post(
      cloud,
      cloud.a.keys.agent,
      '/api/v1/agentgate/propose',
      transferCall(lobe, 0, { tool_name, arguments: { c: 'ls' } }),
    );
    t.equal(res.statusCode, 200, `${tool_name} is a tool name`);
  }
});

t.test('kernel tool:invoke refuses such a payload.tool', async (t) => {
  const cloud = await kernelCloud(t);
  for (const tool of DOT_FORMS) {
    const res = await post(cloud, cloud.a.keys.agent, '/api/v1/kernel/authorize', {
      type: 'tool:invoke',
      payload: { tool, command: 'ls' },
      context: { agentId: 'ops-bot', confidenceScore: 0.9 },
    });
    t.not(res.json().status, 'ALLOW', `tool:invoke ${tool}`);
  }
});
