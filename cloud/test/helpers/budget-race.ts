/**
 * What the budget-race tests share: a policy with one tight budget and no metabolic limits (so only the
 * budget can refuse a call), and a barrier that holds every commitDecision until all the racing calls have
 * reached it — every evaluation then saw the same ledger, and only the store's atomic reservation (or the
 * proposal row's unique key) can settle the race.
 */
import type { DecisionCommit, DecisionWrite, Store } from '../../src/store/store.js';

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
