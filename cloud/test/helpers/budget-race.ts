/**
 * What the race tests share: a policy with one tight budget and no metabolic limits (so only the
 * budget can refuse a call), a barrier that holds every commitDecision until all the racing calls have
 * reached it — every evaluation then saw the same ledger and history, and only the store (the atomic
 * reservation, the history read inside the transaction, the proposal row's unique key) can settle the race
 * — two replicas on one database, and many proposes sent at once.
 */
import { generateEd25519 } from '@pentagate/crypto';
import { type BuildAppOptions, type CloudApp, buildApp } from '../../src/app/build-app.js';
import type { DecisionCommit, DecisionWrite, Store } from '../../src/store/store.js';
import { bearer, registration } from './cloud-app.js';

type InjectResponse = Awaited<ReturnType<CloudApp['inject']>>;

/** A policy whose only limit is one budget of `amount` USD per hour for every lobe. */
export function tightBudgetPolicy(id: string, amount: number): string {
  return `
version: 1
id: ${id}
budgets:
  - id: tight
    lobe: "*"
    amount: ${amount}
    windowMs: 3600000
    reservePercent: 0
    unit: USD
metabolic:
  maxIdentical: 10000
  maxNearIdentical: 10000
  probing:
    enabled: false
`;
}

/**
 * Holds every commitDecision of `stores` until `calls` of them have arrived, or — when given — `giveUpMs`
 * passed (for a test of a build that might settle the race before committing and so never bring them all);
 * returns how many arrived.
 */
export function barrierAtCommit(stores: Store | Store[], calls: number, giveUpMs?: number): () => number {
  let arrived = 0;
  let open: () => void = () => {};
  const allArrived = new Promise<void>((resolve) => {
    open = resolve;
    if (giveUpMs !== undefined) setTimeout(resolve, giveUpMs).unref();
  });
  for (const store of Array.isArray(stores) ? stores : [stores]) {
    const commit = store.commitDecision.bind(store);
    store.commitDecision = async <T>(write: DecisionWrite<T>): Promise<DecisionCommit<T>> => {
      arrived++;
      if (arrived === calls) open();
      await allArrived;
      return commit(write);
    };
  }
  return () => arrived;
}

/**
 * Two `cloud serve` replicas on one store (one database), signing with one key, with `policyText` loaded and
 * no rate limit; closed when `t` ends (the store is the caller's).
 */
export async function twoReplicas(
  t: { teardown(fn: () => Promise<void>): void },
  store: Store,
  policyText: string,
  extra: Partial<BuildAppOptions> = {},
): Promise<CloudApp[]> {
  const options: BuildAppOptions = {
    store,
    signingSeed: generateEd25519().privateKey,
    ownsStore: false,
    rateLimit: false,
    policy: { yamlText: policyText, source: 'race.yaml' },
    ...extra,
  };
  const replicas = [await buildApp(options), await buildApp(options)];
  t.teardown(async () => {
    for (const app of replicas) await app.close();
  });
  return replicas;
}

/** Registers `agentName` and sends every body in `bodies` to propose at once, spread over `apps`. */
export async function proposeAtOnce(
  apps: readonly CloudApp[],
  key: string,
  agentName: string,
  bodies: (lobe: string, i: number) => object,
  calls: number,
): Promise<{ lobe: string; responses: InjectResponse[] }> {
  const reg = await apps[0]!.inject({
    method: 'POST',
    url: '/api/v1/agentgate/register',
    headers: bearer(key),
    payload: registration(agentName),
  });
  const lobe = reg.json().lobe_name as string;
  const responses = await Promise.all(
    Array.from({ length: calls }, (_, i) =>
      apps[i % apps.length]!.inject({
        method: 'POST',
        url: '/api/v1/agentgate/propose',
        headers: bearer(key),
        payload: bodies(lobe, i),
      }),
    ),
  );
  return { lobe, responses };
}
