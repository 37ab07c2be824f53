/**
 * The demo's banner lines are pasted into a shell: a URL with a query string must be quoted, or zsh (the
 * macOS default shell) reads `?` as a glob and answers "no matches found" instead of running curl.
 */
import t from 'tap';
import { demoWelcome } from '../../src/fleet/demo-cloud.js';

t.test('the live view line quotes its URL, so a shell does not glob its query string', async (t) => {
  const text = demoWelcome('http://127.0.0.1:4321', {
    tenantId: 'ten_1',
    robotId: 'ur5e-01',
    edgeKeyPath: '/tmp/cell/cloud/edge.api-key',
    operatorKey: 'pgk_op',
    operatorKeyPath: '/tmp/cell/cloud/operator.api-key',
    agentKey: 'pgk_agent',
    agentKeyPath: '/tmp/cell/cloud/agent.api-key',
    operatorId: 'operator-sim',
  });
  const live = text.split('\n').find((line) => line.includes('live view:'));
  t.match(live, '"http://127.0.0.1:4321/api/v1/fleet/live?robot=ur5e-01"');
  t.match(text, 'sign in with the operator key pgk_op');
});
