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

t.test('a count multiplies its own payment; other members that look alike do not', async (t) => {
  t.equal(spendOf({ amount: 10, count: 1000 }).requested, 10_000);
  t.equal(spendOf({ amount: 10, count: 3, quantity: 2 }).requested, 60, 'two multipliers multiply');
  t.equal(spendOf({ amount: 500, count: 0 }).requested, 500, 'a count below 1 does not lower the payment');
  t.equal(spendOf({ amount: 10, unit: 'USD', units: 'cents' }).requested, 10, 'a unit name is no count');
  t.equal(spendOf({ amount: 10, meta: { count: 7 } }).requested, 10, 'a count with no payment of its own');
  t.equal(spendOf({ count: 4, item: { amount: 25 } }).requested, 100, 'a count scales what its object pays');
});

t.test('an own amount beside its members: distinct payments add up, lines of a total do not', async (t) => {
  t.equal(spendOf({ amount: 900, payment: { amount: 900 } }).requested, 1_800, 'an inner payment of its own');
  t.equal(
    spendOf({ amount: 500, lines: [{ amount: 300 }, { amount: 200 }] }).requested,
    500,
    'lines of the total',
  );
  t.equal(
    spendOf({ amount: 0.3, lines: [{ amount: 0.1 }, { amount: 0.2 }] }).requested,
    0.3,
    'within rounding',
  );
  t.equal(
    spendOf({ amount: 500, lines: [{ amount: 300 }, { amount: 300 }] }).requested,
    1_100,
    'lines that do not add up',
  );
  t.equal(
    spendOf({ amount: 5, arguments: { amount: 900 } }).requested,
    900,
    'the nested call is the same call',
  );
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
