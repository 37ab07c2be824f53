/**
 * `pentagate cloud apikey issue|revoke|list`: API keys of a tenant. A key is printed once, at issue; the
 * store keeps only its SHA-256, so a lost key is revoked and replaced, never recovered.
 */
import { type Command, requireOption } from '@pentagate/protocol';
import { API_KEY_SCOPES } from '../store/records.js';
import { issueApiKey, listApiKeys, parseScope, revokeApiKey } from '../tenants/tenant-admin.js';
import { JSON_OPTION, STATE_OPTIONS, withStore } from './state.js';

const TENANT_OPTION = {
  tenant: {
    type: 'string',
    valueName: 'ID',
    description: 'the tenant id (from `pentagate cloud tenant create`)',
  },
} as const;

export const apikeyIssueCommand: Command = {
  path: ['cloud', 'apikey', 'issue'],
  summary: 'Issue an API key for a tenant (shown once)',
  usage: `--tenant ID --scope ${API_KEY_SCOPES.join('|')} [--agent NAME] [--region R] [--department D] [--db …] [--json]`,
  description:
    'Issues a 256-bit API key. The key is printed once and stored only as its SHA-256.\n' +
    'Scopes: agent (agentgate and selfcorrect routes), operator (approvals), auditor (proofs and the audit log),\n' +
    'admin (everything). --region and --department bind the jurisdiction of every call made with the key:\n' +
    'jurisdiction rules use them, and a call that claims another region or department is refused.\n' +
    '--agent NAME (scope agent only) binds the key to the agent of that agent_name: it registers, proposes,\n' +
    'self-corrects, authorizes and executes only as that agent (any agent_version of it); anything else is\n' +
    'refused with 403 AGENT_FORBIDDEN and spends nothing. Without --agent the key acts for every agent of\n' +
    'the tenant, and can register new agent names, each with the budget the policy gives it.\n' +
    'With --json prints { "key": …, "id": …, "scope": …, "agent"?: …, "region"?: …, "department"?: … }.\n' +
    'Exit codes: 0 issued, 2 bad usage, unknown tenant or an unusable store.',
  options: {
    ...TENANT_OPTION,
    scope: { type: 'string', valueName: 'SCOPE', description: `one of ${API_KEY_SCOPES.join(', ')}` },
    agent: {
      type: 'string',
      valueName: 'NAME',
      description: 'the agent_name the key may act as (scope agent; default: every agent of the tenant)',
    },
    region: { type: 'string', valueName: 'R', description: 'region bound to the key (e.g. EU)' },
    department: { type: 'string', valueName: 'D', description: 'department bound to the key (e.g. finance)' },
    ...STATE_OPTIONS,
    ...JSON_OPTION,
  },
  async run(args, io) {
    const tenantId = requireOption(args, 'tenant');
    const scope = parseScope(requireOption(args, 'scope'));
    const binding = {
      ...(typeof args.options.agent === 'string' ? { agent: args.options.agent } : {}),
      ...(typeof args.options.region === 'string' ? { region: args.options.region } : {}),
      ...(typeof args.options.department === 'string' ? { department: args.options.department } : {}),
    };
    const issued = await withStore(args, (store) => issueApiKey(store, tenantId, scope, Date.now(), binding));
    if (args.options.json) {
      io.out(JSON.stringify({ key: issued.key, id: issued.record.id, scope, ...binding }));
    } else {
      io.out(issued.key);
      const bound = binding.agent === undefined ? '' : `, bound to agent ${JSON.stringify(binding.agent)}`;
      io.err(
        `key ${issued.record.id} (scope ${scope}${bound}) for tenant ${tenantId}: shown once, store it now`,
      );
    }
    return 0;
  },
};

export const apikeyRevokeCommand: Command = {
  path: ['cloud', 'apikey', 'revoke'],
  summary: 'Revoke an API key of a tenant',
  usage: '--tenant ID KEY_ID [--db …] [--json]',
  description:
    'Revokes the key with that id (as printed by `apikey issue --json` or `apikey list`). Requests with it\n' +
    'are refused (401) from then on. Exit codes: 0 revoked, 2 no such unrevoked key, bad usage or store.',
  options: { ...TENANT_OPTION, ...STATE_OPTIONS, ...JSON_OPTION },
  positionals: [1, 1],
  async run(args, io) {
    const tenantId = requireOption(args, 'tenant');
    const keyId = args.positionals[0]!;
    await withStore(args, (store) => revokeApiKey(store, tenantId, keyId));
    io.out(args.options.json ? JSON.stringify({ id: keyId, revoked: true }) : `revoked ${keyId}`);
    return 0;
  },
};

export const apikeyListCommand: Command = {
  path: ['cloud', 'apikey', 'list'],
  summary: "List a tenant's API keys (ids, scopes and bindings, never the keys)",
  usage: '--tenant ID [--db …] [--json]',
  description:
    'Lists key ids, scopes, issue/revoke times and the agent a key is bound to. Exit codes: 0 listed, 2 bad\n' +
    'usage or store.',
  options: { ...TENANT_OPTION, ...STATE_OPTIONS, ...JSON_OPTION },
  async run(args, io) {
    const tenantId = requireOption(args, 'tenant');
    const keys = await withStore(args, (store) => listApiKeys(store, tenantId));
    const rows = keys.map((k) => ({
      id: k.id,
      scope: k.scope,
      createdAt: new Date(k.createdAtMs).toISOString(),
      revokedAt: k.revokedAtMs === null ? null : new Date(k.revokedAtMs).toISOString(),
      agent: k.agentName,
      region: k.region,
      department: k.department,
    }));
    if (args.options.json) io.out(JSON.stringify({ keys: rows }));
    else {
      for (const r of rows)
        io.out(
          `${r.id}  ${r.scope.padEnd(8)}  ${r.createdAt}  ${r.revokedAt ? `revoked ${r.revokedAt}` : 'active'}` +
            (r.agent === null ? '' : `  agent ${r.agent}`),
        );
      if (rows.length === 0) io.out('(no keys)');
    }
    return 0;
  },
};
