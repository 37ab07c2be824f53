/**
 * A real app on a real store for route tests: two tenants (a, b), each with one key per scope, the
 * documented example policy as the server default, and a fresh signing seed.
 */
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateEd25519 } from '@pentagate/crypto';
import type { Test } from 'tap';
import { type BuildAppOptions, type CloudApp, buildApp } from '../../src/app/build-app.js';
import type { ApiKeyScope } from '../../src/store/records.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { createTenant, issueApiKey } from '../../src/tenants/tenant-admin.js';

export const EXAMPLE_POLICY_PATH = fileURLToPath(new URL('../../policies/example.yaml', import.meta.url));
export const EXAMPLE_POLICY = readFileSync(EXAMPLE_POLICY_PATH, 'utf8');

export interface TestTenant {
  id: string;
  keys: Record<ApiKeyScope, string>;
  /** The id of each key (an operator that enrols its own consent key is named by it). */
  keyIds: Record<ApiKeyScope, string>;
}

export interface TestCloud {
  app: CloudApp;
  store: Store;
  seed: Uint8Array;
  a: TestTenant;
  b: TestTenant;
  dir: string;
}

/** The jurisdiction the test administrator binds to the agent and admin keys (the example policy allows it). */
export const TEST_BINDING = { region: 'EU', department: 'finance' } as const;

export async function testTenant(store: Store, name: string): Promise<TestTenant> {
  const tenant = await createTenant(store, name);
  const keys = {} as Record<ApiKeyScope, string>;
  const keyIds = {} as Record<ApiKeyScope, string>;
  for (const scope of ['agent', 'operator', 'auditor', 'admin'] as const) {
    const binding = scope === 'agent' || scope === 'admin' ? TEST_BINDING : {};
    const issued = await issueApiKey(store, tenant.id, scope, Date.now(), binding);
    keys[scope] = issued.key;
    keyIds[scope] = issued.record.id;
  }
  return { id: tenant.id, keys, keyIds };
}

export async function testCloud(
  t: Test,
  options: Partial<BuildAppOptions> & { store?: Store; policyText?: string | false } = {},
): Promise<TestCloud> {
  const dir = mkdtempSync(join(tmpdir(), 'pentagate-cloud-'));
  const store = options.store ?? new SqliteStore({ path: join(dir, 'cloud.db') });
  const seed = options.signingSeed ?? generateEd25519().privateKey;
  const a = await testTenant(store, 'tenant-a');
  const b = await testTenant(store, 'tenant-b');
  const policyText = options.policyText ?? EXAMPLE_POLICY;
  const app = await buildApp({
    rateLimit: false,
    ...options,
    store,
    signingSeed: seed,
    ...(policyText === false ? {} : { policy: { yamlText: policyText, source: 'example.yaml' } }),
  });
  t.teardown(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { app, store, seed, a, b, dir };
}

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

/** A registration record with every field of specification §2.2. */
/** GET /api/v1/agentgate/schema as an agent reads it (the schemas the adapter routes serve). */
export async function servedAgentSchema<T>(cloud: { app: CloudApp }, agentKey: string): Promise<T> {
  const res = await cloud.app.inject({
    method: 'GET',
    url: '/api/v1/agentgate/schema',
    headers: bearer(agentKey),
  });
  return res.json() as T;
}

export function registration(agentName = 'billing-agent', domain = 'FINANCE'): Record<string, unknown> {
  return {
    agent_name: agentName,
    domain,
    capabilities: ['payments.transfer'],
    agent_version: '1.0.0',
    model_id: 'gpt-4o-2024-08-06',
  };
}

let toolCallCounter = 0;

/** A fresh caller-chosen tool call id. */
export function toolCallId(): string {
  toolCallCounter += 1;
  return `call_${process.pid}_${Date.now()}_${toolCallCounter}`;
}

/** Registers an agent for tenant `tenant` and returns its lobe name. */
export async function registerLobe(
  cloud: TestCloud,
  tenant: TestTenant,
  agentName = 'billing-agent',
  domain = 'FINANCE',
): Promise<string> {
  const res = await cloud.app.inject({
    method: 'POST',
    url: '/api/v1/agentgate/register',
    headers: bearer(tenant.keys.agent),
    payload: registration(agentName, domain),
  });
  if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(`register failed: ${res.body}`);
  return res.json().lobe_name;
}

/**
 * A realistic approved propose body (specification §2.3) under the example policy: the key is bound to
 * the finance department, the spend is small, the confidence high. `toolCall` overrides tool_call members.
 */
export function transferCall(
  lobeName: string,
  spend = 120,
  toolCall: Record<string, unknown> = {},
): { lobe_name: string; spend_amount: number; tool_call: Record<string, unknown> } {
  return {
    lobe_name: lobeName,
    spend_amount: spend,
    tool_call: {
      id: toolCallId(),
      tool_name: 'payments.transfer',
      arguments: {
        recipient: 'IBAN DE89 3704 0044 0532 0130 00',
        amount: spend,
        currency: 'USD',
        memo: 'invoice 4471',
      },
      agent_confidence: 0.92,
      trigger_prompt: 'Pay invoice 4471 from Contoso for consulting in May.',
      ...toolCall,
    },
  };
}

/** A self-correcting action record (specification §2.5). `action` overrides its members. */
export function selfCorrectBody(
  agentId: string,
  spend = 100,
  action: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    action: {
      agent_id: agentId,
      intent_domain: 'FINANCE',
      tool_name: 'payments.transfer',
      tool_args: { recipient: 'ACME GmbH', amount: spend },
      confidence: 0.9,
      spend_amount: spend,
      ...action,
    },
  };
}

/** Requests over a real socket to `url` (a listening app), as `key`; a body is sent as JSON. */
export function httpCaller(url: string) {
  return (key: string, method: string, path: string, body?: unknown) =>
    fetch(`${url}${path}`, {
      method,
      headers: { ...bearer(key), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
}
