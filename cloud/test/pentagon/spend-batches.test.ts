/**
 * What a batch spends (argument-values.ts, tools.spendArguments): every element of a collection is a
 * payment of its own, whatever the collection — an outside review found a map of transfers, nested arrays
 * and sibling objects charged only their largest amount, past the budget and the four-eyes threshold.
 * One object that spells its amount twice is still one payment.
 */
import t from 'tap';
import { call, codes, evaluate } from './fixtures.js';

/** The spend the economic tier weighed for a payments.transfer declaring spend_amount 0. */
function spendOf(args: Record<string, unknown>) {
  const v = evaluate(
    call({
      tool_name: 'payments.transfer',
      arguments: { recipient: 'ACME GmbH', currency: 'USD', ...args },
      spend_amount: 0,
    }),
  );
  return { requested: v.tiers.tier3.economic.budget.requested, codes: codes(v) };
}

t.test('a map, nested arrays and sibling objects spend the sum of their amounts', async (t) => {
  const cases: Array<[string, Record<string, unknown>, number]> = [
    ['map', { transfers: { t1: { amount: 9000, to: 'A' }, t2: { amount: 9000, to: 'B' } } }, 18_000],
    ['nested arrays', { transfers: [[{ amount: 9000 }], [{ amount: 9000 }]] }, 18_000],
    ['sibling objects', { first: { amount: 600 }, second: { amount: 600 } }, 1_200],
    [
      'a map of arrays of arrays',
      { batches: { a: [{ amount: 100 }, { amount: 200 }], b: [[{ amount: 300 }], []] } },
      600,
    ],
    ['an array of maps', { transfers: [{ x: { amount: 250 }, y: { amount: 250 } }] }, 500],
  ];
  for (const [what, args, spend] of cases) {
    t.equal(spendOf(args).requested, spend, what);
  }
});

t.test('one payment spelled twice is charged once, a batch of such payments their sum', async (t) => {
  t.equal(
    spendOf({ transfers: { t1: { amount: 600, Amount: 600 }, t2: { AMOUNT: 600, amount: 600 } } }).requested,
    1_200,
    'two payments, each with two spellings of its amount: 1 200, not 600 and not 2 400',
  );
  t.equal(
    spendOf({ transfers: { t1: { amount: 100, 'total-amount': 9 }, t2: { amount: 100 } } }).requested,
    200,
    'another argument name does not count',
  );
});

t.test('amounts that add up past a finite number refuse the call', async (t) => {
  const { codes: found } = spendOf({ transfers: { a: { amount: 1e308 }, b: { amount: 1e308 } } });
  t.ok(found.includes('ECONOMY.SPEND_ARGUMENT_INVALID'), found.join(', '));
});

t.test('the amount in any spelling a payment API gives it counts; other names do not', async (t) => {
  for (const key of [
    'amounts',
    'ａｍｏｕｎｔ',
    'AMOUNT_USD',
    'Amount-Cents',
    'amount_minor_units',
    'amountMicros',
  ]) {
    t.equal(spendOf({ amount: 1, [key]: 700 }).requested, 700, key);
  }
  for (const key of ['amountCurrency', 'paidAmount', 'amountLimitValue']) {
    t.equal(spendOf({ amount: 1, [key]: 700 }).requested, 1, key);
  }
});
