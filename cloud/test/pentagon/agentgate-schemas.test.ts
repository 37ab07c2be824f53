import {
  AGENT_DOMAIN_NAMES,
  AgentRegistrationSchema,
  SelfCorrectRequestSchema,
  ProposeRequestSchema,
  ToolCallSchema,
  VIOLATION_CODES,
  conforms,
  schemaIssues,
} from '@pentagate/protocol';
import t from 'tap';

const registration = {
  agent_name: 'Invoice Bot',
  domain: 'FINANCE',
  capabilities: ['payments.transfer'],
  agent_version: '1.2.0',
  model_id: 'gpt-4o',
};

t.test('registration accepts every documented domain, FINANCE included, and refuses others', async (t) => {
  t.ok(AGENT_DOMAIN_NAMES.includes('FINANCE'));
  for (const domain of AGENT_DOMAIN_NAMES) {
    t.ok(conforms(AgentRegistrationSchema, { ...registration, domain }), domain);
  }
  const issues = schemaIssues(AgentRegistrationSchema, { ...registration, domain: 'CASINO' });
  const domain = issues.find((i) => i.path === '/domain');
  t.match(domain?.message, /expected one of "FINANCE", "HEALTHCARE"/, 'the allowed values are named');
  for (const field of Object.keys(registration)) {
    const { [field]: _, ...without } = registration as Record<string, unknown>;
    t.notOk(conforms(AgentRegistrationSchema, without), `${field} is required`);
  }
});

t.test('a propose body refuses negative spend, fractional depth and unknown fields', async (t) => {
  const base = {
    lobe_name: 'lobe-1',
    spend_amount: 10,
    tool_call: {
      id: 'call-1',
      tool_name: 'payments.transfer',
      arguments: { to: 'acct-9' },
      agent_confidence: 0.9,
      trigger_prompt: 'pay acct-9',
    },
  };
  t.ok(conforms(ProposeRequestSchema, base));
  t.ok(
    conforms(ProposeRequestSchema, {
      ...base,
      tool_call: { ...base.tool_call, call_depth: 2 },
      region: 'EU',
    }),
  );
  t.notOk(conforms(ProposeRequestSchema, { ...base, spend_amount: -1 }));
  t.notOk(conforms(ProposeRequestSchema, { ...base, tool_call: { ...base.tool_call, call_depth: 1.5 } }));
  t.notOk(conforms(ProposeRequestSchema, { ...base, sneaky: true }));
  t.notOk(conforms(ProposeRequestSchema, { ...base, tool_call: { ...base.tool_call, tool_name: '../etc' } }));
  t.notOk(
    conforms(ProposeRequestSchema, { ...base, tool_call: { ...base.tool_call, agent_confidence: 1.5 } }),
  );
  t.ok(conforms(ToolCallSchema, base.tool_call));
});

t.test('a self-correct request carries one action with the specification fields', async (t) => {
  const action = {
    agent_id: 'a1',
    intent_domain: 'FINANCE',
    tool_name: 't',
    tool_args: {},
    confidence: 0.5,
  };
  t.ok(conforms(SelfCorrectRequestSchema, { action }));
  t.notOk(conforms(SelfCorrectRequestSchema, { agent_id: 'a1', action }), 'agent_id sits inside action');
  t.notOk(conforms(SelfCorrectRequestSchema, { action: { ...action, intent_domain: 'CASINO' } }));
});

t.test('every violation code is VERTEX.NAME and names its own vertex', async (t) => {
  for (const [code, info] of Object.entries(VIOLATION_CODES)) {
    t.match(code, /^[A-Z]+\.[A-Z_]+$/);
    t.equal(code.split('.')[0], info.vertex, code);
  }
});
