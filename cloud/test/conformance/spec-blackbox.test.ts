/**
 * A black-box client written from the interface specification alone (spec/agent-action-governance.md):
 * plain `fetch`, the specification's field names, no import from this repository's packages. It runs
 * against a real `pentagate cloud serve` process (the built CLI, `npm run build` first) on a free port,
 * with a tenant and an agent key made by the CLI the way an administrator would.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'pentagate.js');
const POLICY = join(ROOT, 'cloud', 'policies', 'example.yaml');
const run = promisify(execFile);

async function pentagate(stateDir: string, ...argv: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [BIN, ...argv, '--state-dir', stateDir, '--json']);
  return JSON.parse(stdout);
}

/** Starts `cloud serve --port 0 --json` and resolves with its URL (the first stdout line). */
async function serve(stateDir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      BIN,
      'cloud',
      'serve',
      '--port',
      '0',
      '--policy',
      POLICY,
      '--state-dir',
      stateDir,
      '--log-level',
      'silent',
      '--json',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`cloud serve exited with ${code} before listening`)));
    lines.once('line', (line) => resolve(JSON.parse(line).url));
  });
  return { url, child };
}

t.test('a client written from the specification alone works against cloud serve', async (t) => {
  const stateDir = mkdtempSync(join(tmpdir(), 'pentagate-spec-'));
  const tenant = (await pentagate(stateDir, 'cloud', 'tenant', 'create', 'spec-client')).id as string;
  const issued = await pentagate(
    stateDir,
    'cloud',
    'apikey',
    'issue',
    '--tenant',
    tenant,
    '--scope',
    'agent',
    '--department',
    'finance',
  );
  const apiKey = issued.key as string;
  const { url: baseUrl, child } = await serve(stateDir);
  t.teardown(async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(stateDir, { recursive: true, force: true });
  });

  // §4, §5: JSON bodies, Authorization: Bearer <API_KEY>
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${apiKey}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: a client written from the text has no types of ours
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  // §2.2: registration record → lobe_name, propose_endpoint
  const reg = await call('POST', '/api/v1/agentgate/register', {
    agent_name: 'Invoice Agent',
    domain: 'FINANCE',
    capabilities: ['payments.transfer'],
    agent_version: '1.4.2',
    model_id: 'gpt-4o',
  });
  t.ok(reg.status === 200 || reg.status === 201, `register answers 2xx (${reg.status})`);
  t.type(reg.body.lobe_name, 'string');
  t.type(reg.body.propose_endpoint, 'string');

  // §2.3 → §2.4: an approved tool call
  const proposePath = new URL(reg.body.propose_endpoint, baseUrl).pathname;
  t.equal(proposePath, '/api/v1/agentgate/propose');
  const toolCall = {
    lobe_name: reg.body.lobe_name,
    spend_amount: 120,
    tool_call: {
      id: 'call-0001',
      tool_name: 'payments.transfer',
      arguments: { recipient: 'Contoso Ltd', amount: 120, currency: 'USD' },
      agent_confidence: 0.93,
      trigger_prompt: 'Pay invoice 4471 from Contoso.',
    },
  };
  const verdict = await call('POST', proposePath, toolCall);
  t.equal(verdict.status, 200);
  t.equal(verdict.body.approved, true);
  t.type(verdict.body.governance_token, 'string');
  t.type(verdict.body.reason, 'string');
  t.same(verdict.body.violations, [], 'violations empty when approved');
  const tiers = verdict.body.tiers;
  for (const [tier, keys] of [
    ['tier1', ['zkInference', 'jurisdiction']],
    ['tier2', ['proofFirewall', 'arbitration']],
    ['tier3', ['economic', 'simulation']],
  ] as const) {
    for (const key of keys) t.type(tiers[tier][key], 'object', `tiers.${tier}.${key}`);
  }

  // §2.4, §7: a denied tool call → approved false with violations (strings)
  const denied = await call('POST', proposePath, {
    ...toolCall,
    spend_amount: 0,
    tool_call: { ...toolCall.tool_call, id: 'call-0002', tool_name: 'shell.exec', arguments: { cmd: 'ls' } },
  });
  t.equal(denied.status, 200);
  t.equal(denied.body.approved, false);
  t.ok(denied.body.violations.length > 0);
  for (const v of denied.body.violations) t.type(v, 'string');

  // §4: the schema of the adapter
  const schema = await call('GET', '/api/v1/agentgate/schema');
  t.equal(schema.status, 200);
  t.type(schema.body, 'object');

  // §2.5, §4 rules 4–6: selfcorrect, no registration
  const cleared = await call('POST', '/api/v1/selfcorrect', {
    action: {
      agent_id: 'self-correcting-agent',
      intent_domain: 'FINANCE',
      tool_name: 'payments.transfer',
      tool_args: { recipient: 'ACME GmbH', amount: 10 },
      confidence: 0.9,
    },
  });
  t.equal(cleared.status, 200);
  t.equal(cleared.body.type, 'SERVICE_GOVERNANCE_CLEARED');
  t.type(cleared.body.governance_token, 'string');
  t.type(cleared.body.summary, 'string');

  const veto = await call('POST', '/api/v1/selfcorrect', {
    action: {
      agent_id: 'self-correcting-agent',
      intent_domain: 'FINANCE',
      tool_name: 'shell.exec',
      tool_args: { cmd: 'rm -rf /' },
      confidence: 0.9,
    },
  });
  t.equal(veto.status, 403);
  t.equal(veto.body.type, 'SERVICE_GOVERNANCE_VETO');
  t.type(veto.body.summary, 'string');
  t.ok(Array.isArray(veto.body.violations) && veto.body.violations.length > 0);
  for (const v of veto.body.violations) t.type(v, 'string');
  t.type(veto.body.remediation, 'string');

  // §5: no key → refused
  const anon = await fetch(`${baseUrl}/api/v1/agentgate/schema`);
  t.equal(anon.status, 401);
});
