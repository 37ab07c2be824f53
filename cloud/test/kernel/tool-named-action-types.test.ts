/**
 * A `tool:invoke` whose tool names one of the kernel's action types, in any separator spelling, is judged
 * by that type's rules too (action-rules.ts): an outside review found `vault:write`, a personal-data
 * `data:export` and `policy.update` allowed at once when sent as tool:invoke, on the kernel route and on
 * the agent routes, where the type itself waits for an operator or is held for veto.
 */
import type { ProposedAction } from '@pentagate/protocol';
import t from 'tap';
import { registerLobe, transferCall } from '../helpers/cloud-app.js';
import { HOLD_MS, kernelCloud, post } from './kernel-helpers.js';

const AUTHORIZE = '/api/v1/kernel/authorize';

let counter = 0;
function invoke(tool: string, payload: Record<string, unknown>): ProposedAction {
  counter += 1;
  return {
    type: 'tool:invoke',
    payload: { tool, ...payload },
    context: { agentId: `ops-bot-${counter}`, confidenceScore: 0.9 },
  };
}

const codes = (d: { violations: { code: string }[] }) => d.violations.map((v) => v.code);

t.test('kernel: tool:invoke of vault:write in any spelling waits for an operator', async (t) => {
  const c = await kernelCloud(t);
  for (const tool of ['vault:write', 'vault.write', 'Vault_Write', 'mcp:vault/write', 'vault-write']) {
    for (const payload of [
      { arguments: { key: 'db-password', value: 'x' } },
      { key: 'db-password', value: 'x' },
    ]) {
      const d = (await post(c, c.a.keys.agent, AUTHORIZE, invoke(tool, payload))).json();
      t.equal(d.status, 'REQUIRE_HUMAN', `${tool} ${JSON.stringify(payload)}`);
      t.ok(codes(d).includes('CONSENT.VAULT_WRITE'));
    }
  }
});

t.test(
  'kernel: tool:invoke of data:export reads personalData and recordCount from the arguments',
  async (t) => {
    const c = await kernelCloud(t);
    const status = async (tool: string, payload: Record<string, unknown>) =>
      (await post(c, c.a.keys.agent, AUTHORIZE, invoke(tool, payload))).json();
    for (const payload of [
      { arguments: { personalData: true, recordCount: 10 } },
      { personalData: true, recordCount: 10 },
      { arguments: { recordCount: 1_000_000 } },
      { personalData: false, arguments: { personalData: true } },
    ]) {
      const d = await status('data.export', payload);
      t.equal(d.status, 'REQUIRE_HUMAN', JSON.stringify(payload));
      t.same(codes(d), ['CONSENT.PERSONAL_DATA_EXPORT']);
    }
    const typed = await status('data_export', { arguments: { personalData: 'true' } });
    t.equal(typed.status, 'DENY', 'personalData as a string is refused, as in a data:export payload');
    t.match(
      typed.violations[0].message,
      /data:export needs payload\[\.arguments\]\.personalData, when given, as true or false, got "true"/,
    );
  },
);

t.test('kernel: tool:invoke of policy.update is held for veto', async (t) => {
  const c = await kernelCloud(t);
  // (`policy:update` as written is a protected resource of the example policy: refused outright)
  for (const tool of ['policy.update', 'Policy_Update']) {
    const d = (await post(c, c.a.keys.agent, AUTHORIZE, invoke(tool, { arguments: { change: 'x' } }))).json();
    t.equal(d.status, 'HELD_FOR_VETO', tool);
    t.same(codes(d), ['CONSENT.POLICY_UPDATE_HOLD']);
    t.equal(Date.parse(d.holdUntil) - c.clock.nowMs, HOLD_MS, 'held for the configured window');
  }
});

t.test('agent route: a tool named like an action type gets its rules', async (t) => {
  const c = await kernelCloud(t);
  const lobe = await registerLobe(c, c.a);
  const propose = async (tool_name: string, args: Record<string, unknown>) =>
    (
      await post(
        c,
        c.a.keys.agent,
        '/api/v1/agentgate/propose',
        transferCall(lobe, 0, { tool_name, arguments: args }),
      )
    ).json();
  const vault = await propose('vault.write', { key: 'db-password', value: 'x' });
  t.equal(vault.approved, false, 'vault.write is not approved at once');
  t.match(vault.violations.join('\n'), /CONSENT\.VAULT_WRITE/);
  const exported = await propose('data:export', { personalData: true, recordCount: 5 });
  t.equal(exported.approved, false, 'a personal-data export is not approved at once');
  t.match(exported.violations.join('\n'), /CONSENT\.PERSONAL_DATA_EXPORT/);
  const policy = await propose('policy.update', { change: 'x' });
  t.equal(policy.approved, false, 'a policy update is not approved at once');
  t.match(policy.violations.join('\n'), /CONSENT\.POLICY_UPDATE_HOLD/);
  t.equal(policy.tiers.tier2.arbitration.status, 'HELD_FOR_VETO');
});

t.test('kernel: tool:invoke of ledger.write needs the ledger fields in its arguments', async (t) => {
  const c = await kernelCloud(t);
  const decide = async (payload: Record<string, unknown>) =>
    (await post(c, c.a.keys.agent, AUTHORIZE, invoke('ledger.write', payload))).json();
  const missing = await decide({ arguments: { amount: 5 } });
  t.equal(missing.status, 'DENY', 'no recipient: refused, as a ledger:write would be');
  t.match(missing.violations[0].message, /ledger:write needs payload\[\.arguments\]\.recipient/);
  const conflicting = await decide({
    amount: 5,
    recipient: 'ACME',
    arguments: { amount: -5, recipient: 'ACME' },
  });
  t.equal(conflicting.status, 'DENY', 'every copy of the amount must be valid');
  t.match(conflicting.violations[0].message, /got -5/);
  t.equal(
    (await decide({ arguments: { amount: 5, recipient: 'ACME' } })).status,
    'ALLOW',
    'a valid one passes',
  );
  t.equal(
    (await post(c, c.a.keys.agent, AUTHORIZE, invoke('crm.update', { arguments: { change: 'x' } }))).json()
      .status,
    'ALLOW',
    'a tool whose name only ends in an action verb is no action type',
  );
});
