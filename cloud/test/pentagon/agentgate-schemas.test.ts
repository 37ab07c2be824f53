import {
  AGENT_DOMAIN_NAMES,
  AgentRegistrationSchema,
  SelfCorrectRequestSchema,
  ToolCallSchema,
  VIOLATION_CODES,
  conforms,
  schemaIssues,
} from '@pentagate/protocol';
import t from 'tap';

t.test('registration accepts every documented domain, FINANCE included, and refuses others', async (t) => {
  t.ok(AGENT_DOMAIN_NAMES.includes('FINANCE'));
  for (const domain of AGENT_DOMAIN_NAMES) {
    t.ok(conforms(AgentRegistrationSchema, { agent_name: 'Invoice Bot', version: '1.2.0', domain }), domain);
  }
  const issues = schemaIssues(AgentRegistrationSchema, { agent_name: 'x', version: '1', domain: 'CASINO' });
  t.ok(issues.some((i) => i.path === '/domain'));
});

t.test('a tool call refuses negative spend, fractional depth and unknown fields', async (t) => {
  const base = { lobe_name: 'lobe-1', tool_name: 'payments.transfer', arguments: { to: 'acct-9' } };
  t.ok(conforms(ToolCallSchema, { ...base, spend_amount: 10, call_depth: 2, region: 'EU' }));
  t.notOk(conforms(ToolCallSchema, { ...base, spend_amount: -1 }));
  t.notOk(conforms(ToolCallSchema, { ...base, call_depth: 1.5 }));
  t.notOk(conforms(ToolCallSchema, { ...base, sneaky: true }));
  t.notOk(conforms(ToolCallSchema, { ...base, tool_name: '../etc' }));
});

t.test('a self-correct request carries an agent id and an action', async (t) => {
  t.ok(conforms(SelfCorrectRequestSchema, { agent_id: 'a1', action: { tool_name: 't', arguments: {} } }));
  t.notOk(conforms(SelfCorrectRequestSchema, { agent_id: 'a1' }));
});

t.test('every violation code is VERTEX.NAME and names its own vertex', async (t) => {
  for (const [code, info] of Object.entries(VIOLATION_CODES)) {
    t.match(code, /^[A-Z]+\.[A-Z_]+$/);
    t.equal(code.split('.')[0], info.vertex, code);
  }
});
