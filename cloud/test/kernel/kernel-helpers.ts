/**
 * Kernel test fixtures: a real app (testCloud) with a clock the test moves, and ProposedActions that
 * land in each status under the documented example policy.
 */
import { jcsDigestHex } from '@pentagate/crypto';
import type { ProposedAction } from '@pentagate/protocol';
import tap, { type Test } from 'tap';
import type { KernelSettings } from '../../src/kernel/kernel-settings.js';
import type { Store } from '../../src/store/store.js';
import { bearer, type TestCloud, testCloud } from '../helpers/cloud-app.js';
import { openTestPostgres, requirePostgres } from '../helpers/postgres.js';

export interface KernelTestCloud extends TestCloud {
  clock: { nowMs: number };
  advance(ms: number): void;
}

export const HOLD_MS = 60_000;

export async function kernelCloud(
  t: Test,
  options: { store?: Store; policyText?: string | false; kernel?: Partial<KernelSettings> } = {},
): Promise<KernelTestCloud> {
  const clock = { nowMs: Date.now() };
  const cloud = await testCloud(t, {
    ...options,
    nowMs: () => clock.nowMs,
    kernel: { policyUpdateHoldMs: HOLD_MS, expirySweepMs: 0, ...options.kernel },
  });
  return {
    ...cloud,
    clock,
    advance: (ms) => {
      clock.nowMs += ms;
    },
  };
}

/** The store a test runs on: undefined for the default SQLite, or a PostgreSQL store (onBothStores). */
export type StoreUnderTest = () => Promise<Store | undefined>;

/** `run` on SQLite, and on PostgreSQL when reachable (CI=true: required, helpers/postgres.ts). */
export function onBothStores(name: string, run: (t: Test, store: StoreUnderTest) => Promise<void>): void {
  tap.test(`SQLite: ${name}`, (t) => run(t, async () => undefined));
  tap.test(`PostgreSQL: ${name}`, async (t) => {
    if (!(await requirePostgres(t))) return;
    await run(t, () => openTestPostgres(t));
  });
}

/** A kernel cloud on the store under test, with these kernel settings. */
export async function kernelCloudOn(
  t: Test,
  store: StoreUnderTest,
  kernel: Partial<KernelSettings>,
): Promise<KernelTestCloud> {
  const s = await store();
  return kernelCloud(t, { ...(s ? { store: s } : {}), kernel });
}

let counter = 0;

export function ledgerWrite(
  amount: number,
  agentId = 'billing-bot',
  extra: Partial<ProposedAction> = {},
): ProposedAction {
  return {
    type: 'ledger:write',
    payload: { amount, recipient: `supplier-${counter++}`, currency: 'USD' },
    context: { agentId, confidenceScore: 0.9 },
    ...extra,
  };
}

export function vaultWrite(agentId = 'ops-bot'): ProposedAction {
  return {
    type: 'vault:write',
    payload: { path: 'kv/app/token', value: 'rotated' },
    context: { agentId, confidenceScore: 0.9 },
  };
}

export function policyUpdate(agentId = 'ops-bot'): ProposedAction {
  return {
    type: 'policy:update',
    payload: { change: 'raise the support budget to 200 USD' },
    context: { agentId, confidenceScore: 0.9 },
  };
}

export function shellInvoke(agentId = 'ops-bot'): ProposedAction {
  return {
    type: 'tool:invoke',
    payload: { tool: 'shell.exec', command: 'ls' },
    context: { agentId, confidenceScore: 0.9 },
  };
}

export const digestOf = (action: ProposedAction): string => jcsDigestHex(action);

export async function post(cloud: TestCloud, key: string, url: string, payload: unknown) {
  return cloud.app.inject({ method: 'POST', url, headers: bearer(key), payload: payload as object });
}

export async function get(cloud: TestCloud, key: string, url: string) {
  return cloud.app.inject({ method: 'GET', url, headers: bearer(key) });
}
