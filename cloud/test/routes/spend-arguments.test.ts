/**
 * What a call spends is what its tool will move, not only what the agent declares. Under the example
 * policy `payments.*` spend their `amount` argument (tools.spendArguments), so a 20 000 USD transfer
 * declared as spend_amount 0 — on propose, on selfcorrect (whose specification record has no spend field
 * at all) and as a kernel tool:invoke — is checked against the budget and, where the budget covers it
 * (treasury-bot: 45 000 a day), still needs the four-eyes approval (large-transfers, minSpend 10 000).
 * Before, all three were approved at once with nothing reserved.
 */
import t from 'tap';
import { registerLobe, selfCorrectBody, transferCall } from '../helpers/cloud-app.js';
import { kernelCloud, post } from '../kernel/kernel-helpers.js';

const ARGS = { recipient: 'IBAN DE89 3704 0044 0532 0130 00', amount: 20_000, currency: 'USD' };

/** Proposes a payment of `args` (beside the recipient and currency) on `lobe`, spending 0 by declaration. */
function payerOn(cloud: Awaited<ReturnType<typeof kernelCloud>>, lobe: string) {
  return (args: Record<string, unknown>) =>
    post(
      cloud,
      cloud.a.keys.agent,
      '/api/v1/agentgate/propose',
      transferCall(lobe, 0, { arguments: { recipient: ARGS.recipient, currency: 'USD', ...args } }),
    );
}

t.test('propose: spend_amount 0 for a 20 000 transfer is checked against the budget', async (t) => {
  const cloud = await kernelCloud(t);
  const lobe = await registerLobe(cloud, cloud.a);
  const res = await post(
    cloud,
    cloud.a.keys.agent,
    '/api/v1/agentgate/propose',
    transferCall(lobe, 0, { arguments: ARGS }),
  );
  t.equal(res.statusCode, 200);
  const body = res.json();
  t.equal(body.approved, false, 'not approved');
  t.notOk('governance_token' in body, 'no token');
  t.match(
    body.violations.join('\n'),
    /ECONOMY\.BUDGET_EXCEEDED: spend 20000 exceeds the remaining budget 1000/,
  );
  t.equal(body.tiers.tier3.economic.budget.requested, 20_000, 'the tier shows the spend the tool makes');
});

t.test('propose: an amount the budget cannot cover is refused whatever spend_amount says', async (t) => {
  const cloud = await kernelCloud(t);
  const lobe = await registerLobe(cloud, cloud.a);
  const res = await post(
    cloud,
    cloud.a.keys.agent,
    '/api/v1/agentgate/propose',
    transferCall(lobe, 0, { arguments: { ...ARGS, amount: 5_000 } }),
  );
  const body = res.json();
  t.equal(body.approved, false);
  t.match(
    body.violations.join('\n'),
    /ECONOMY\.BUDGET_EXCEEDED: spend 5000 exceeds the remaining budget 1000/,
  );
});

t.test('propose: a small transfer reserves its amount, not the declared 0', async (t) => {
  const cloud = await kernelCloud(t);
  const lobe = await registerLobe(cloud, cloud.a);
  const pay = (amount: number) =>
    post(
      cloud,
      cloud.a.keys.agent,
      '/api/v1/agentgate/propose',
      transferCall(lobe, 0, { arguments: { ...ARGS, amount, memo: `invoice ${amount}` } }),
    );
  t.equal((await pay(600)).json().approved, true, 'within the budget of 1000');
  const second = (await pay(600)).json();
  t.equal(second.approved, false, 'the first 600 was reserved, so a second 600 does not fit');
  t.match(second.violations.join('\n'), /ECONOMY\.BUDGET_EXCEEDED/);
});

t.test('propose: the amount argument counts in any letter case, the largest winning', async (t) => {
  const cloud = await kernelCloud(t);
  const lobe = await registerLobe(cloud, cloud.a);
  const pay = (args: Record<string, unknown>, memo: string) =>
    post(
      cloud,
      cloud.a.keys.agent,
      '/api/v1/agentgate/propose',
      transferCall(lobe, 0, { arguments: { recipient: ARGS.recipient, currency: 'USD', memo, ...args } }),
    );
  // first: three denials of one tool are probing (the example policy's metabolic rule)
  t.equal((await pay({ amount: 10 }, 'd')).json().approved, true, 'the plain argument passes');
  const hidden = (await pay({ Amount: 50_000, amount: 1 }, 'a')).json();
  t.equal(hidden.approved, false, 'an `Amount` of 50 000 beside an `amount` of 1 is not a spend of 1');
  t.match(hidden.violations.join('\n'), /ECONOMY\.BUDGET_EXCEEDED: spend 50000 exceeds/);
  const upper = (await pay({ AMOUNT: 5_000 }, 'b')).json();
  t.match(upper.violations.join('\n'), /ECONOMY\.BUDGET_EXCEEDED: spend 5000 exceeds/, 'alone too');
  const text = (await pay({ Amount: 'lots', amount: 10 }, 'c')).json();
  t.match(
    text.violations.join('\n'),
    /ECONOMY\.SPEND_ARGUMENT_INVALID: .* got "lots"/,
    'a variant that is no number refuses',
  );
});

t.test('propose: an amount at any depth counts, and a batch spends its total', async (t) => {
  const cloud = await kernelCloud(t);
  const lobe = await registerLobe(cloud, cloud.a);
  const pay = payerOn(cloud, lobe);
  // first (denials of one tool soon count as probing):
  const total = (await pay({ amount: 500, lines: [{ amount: 300 }, { amount: 200 }], memo: 'x' })).json();
  t.equal(total.approved, true, 'a total beside its lines is spent once (500), within the budget');
  // outside review: these were approved with spend 1, past the budget and the four-eyes rule; the outer
  // amount is a payment of its own beside the inner ones (outside attack review), so it adds its 1
  for (const [args, spend] of [
    [{ amount: 1, options: { amount: 50_000 } }, 50_001],
    [{ amount: 1, transfers: [{ amount: 50_000, to: 'Y' }] }, 50_001],
    [{ amount: 1, transfers: [{ amount: 600 }, { amount: 600 }] }, 1_201],
    [{ amount: 1, 'Amount ': 5_000 }, 5_000],
  ] as const) {
    const body = (await pay(args)).json();
    t.equal(body.approved, false, JSON.stringify(args));
    t.match(body.violations.join('\n'), new RegExp(`ECONOMY\\.BUDGET_EXCEEDED: spend ${spend} exceeds`));
  }
  const nested = (await pay({ amount: 1, lines: [{ amount: 'n/a' }] })).json();
  t.match(
    nested.violations.join('\n'),
    /ECONOMY\.SPEND_ARGUMENT_INVALID: .* got "n\/a"/,
    'a nested copy that is no number refuses',
  );
});

t.test('propose: a payments call whose amount is missing or not a number is refused', async (t) => {
  const cloud = await kernelCloud(t);
  const lobe = await registerLobe(cloud, cloud.a);
  for (const amount of [undefined, '20000', -5, null]) {
    const args: Record<string, unknown> = { recipient: 'ACME GmbH', currency: 'USD', memo: String(amount) };
    if (amount !== undefined) args.amount = amount;
    const body = (
      await post(
        cloud,
        cloud.a.keys.agent,
        '/api/v1/agentgate/propose',
        transferCall(lobe, 0, { arguments: args }),
      )
    ).json();
    t.equal(body.approved, false, `amount ${JSON.stringify(amount)}`);
    t.match(
      body.violations.join('\n'),
      /ECONOMY\.SPEND_ARGUMENT_INVALID: payments\.transfer spends the value of argument "amount"/,
    );
  }
});

t.test(
  'selfcorrect: a spec-only record (no spend field) for a 20 000 transfer needs four eyes',
  async (t) => {
    const cloud = await kernelCloud(t);
    const body = selfCorrectBody('treasury-bot', 0, { tool_args: ARGS });
    delete (body.action as Record<string, unknown>).spend_amount;
    const res = await post(cloud, cloud.a.keys.agent, '/api/v1/selfcorrect', body);
    t.equal(res.statusCode, 403);
    t.equal(res.json().type, 'SERVICE_GOVERNANCE_VETO');
    t.match(
      res.json().violations.join('\n'),
      /CONSENT\.HUMAN_REQUIRED: payments\.transfer spending 20000 \(>= 10000\)/,
    );
  },
);

t.test('kernel tool:invoke: the payload amount counts, not spendAmount 0', async (t) => {
  const cloud = await kernelCloud(t);
  const res = await post(cloud, cloud.a.keys.agent, '/api/v1/kernel/authorize', {
    type: 'tool:invoke',
    payload: { tool: 'payments.transfer', ...ARGS, spendAmount: 0 },
    context: { agentId: 'treasury-bot', confidenceScore: 0.9 },
  });
  t.equal(res.statusCode, 200);
  t.equal(res.json().status, 'REQUIRE_HUMAN', 'a 20 000 transfer waits for the second person');
  const signed = JSON.parse(Buffer.from(res.json().proof.envelope.payload, 'base64').toString('utf8'));
  t.equal(
    signed.predicate.reservedBudget,
    20_000,
    'the signed statement reserves the amount, not spendAmount 0',
  );
  t.match(
    res.json().violations.map((v: { code: string }) => v.code),
    ['CONSENT.HUMAN_REQUIRED'],
  );
});

t.test("kernel tool:invoke in the agent routes' shape: payload.arguments.amount counts too", async (t) => {
  const cloud = await kernelCloud(t);
  const authorize = (payload: Record<string, unknown>) =>
    post(cloud, cloud.a.keys.agent, '/api/v1/kernel/authorize', {
      type: 'tool:invoke',
      payload: { tool: 'payments.transfer', spendAmount: 0, ...payload },
      context: { agentId: 'treasury-bot', confidenceScore: 0.9 },
    });
  const nested = await authorize({ arguments: ARGS });
  t.equal(nested.json().status, 'REQUIRE_HUMAN', 'nested amount 20 000: four eyes');
  const smallerOnTop = await authorize({ amount: 5, arguments: ARGS });
  t.equal(
    smallerOnTop.json().status,
    'REQUIRE_HUMAN',
    'a smaller top-level amount does not hide the nested one',
  );
  const badNested = await authorize({ amount: 5, arguments: { ...ARGS, amount: '20000' } });
  t.equal(badNested.json().status, 'DENY');
  t.match(badNested.json().violations[0].message, /got "20000"/);
});

// outside review: a batch sent as a map or as nested arrays was charged its largest amount only (9 000),
// so 18 000 of transfers were allowed at once, under the four-eyes threshold of 10 000
t.test('kernel tool:invoke: a map or nested arrays of transfers reserve their sum', async (t) => {
  const cloud = await kernelCloud(t);
  for (const transfers of [
    { t1: { amount: 9000, to: 'A' }, t2: { amount: 9000, to: 'B' } },
    [[{ amount: 9000, to: 'A' }], [{ amount: 9000, to: 'B' }]],
  ]) {
    const res = await post(cloud, cloud.a.keys.agent, '/api/v1/kernel/authorize', {
      type: 'tool:invoke',
      payload: { tool: 'payments.transfer', arguments: { transfers } },
      context: { agentId: 'treasury-bot', confidenceScore: 0.9 },
    });
    t.equal(res.json().status, 'REQUIRE_HUMAN', JSON.stringify(transfers));
    const signed = JSON.parse(Buffer.from(res.json().proof.envelope.payload, 'base64').toString('utf8'));
    t.equal(signed.predicate.reservedBudget, 18_000, 'both transfers are reserved');
  }
});

t.test('propose: two 600 transfers in a map do not fit a budget of 1000', async (t) => {
  const cloud = await kernelCloud(t);
  const lobe = await registerLobe(cloud, cloud.a);
  const body = (
    await post(
      cloud,
      cloud.a.keys.agent,
      '/api/v1/agentgate/propose',
      transferCall(lobe, 0, {
        arguments: { currency: 'USD', transfers: { first: { amount: 600 }, second: { amount: 600 } } },
      }),
    )
  ).json();
  t.equal(body.approved, false);
  t.match(
    body.violations.join('\n'),
    /ECONOMY\.BUDGET_EXCEEDED: spend 1200 exceeds the remaining budget 1000/,
  );
});

// outside attack review: a second spelling of the amount beside `amount: 1` was not counted at all
t.test('propose: the amount counts in its plural, full-width and unit-suffixed spellings', async (t) => {
  const cloud = await kernelCloud(t);
  const lobe = await registerLobe(cloud, cloud.a);
  const pay = payerOn(cloud, lobe);
  for (const spelling of ['amounts', 'ａｍｏｕｎｔ', 'AMOUNT_USD', 'Amount-Cents', 'amountInCents']) {
    for (const args of [{ amount: 1, [spelling]: 50_000 }, { [spelling]: 50_000 }]) {
      const body = (await pay(args)).json();
      t.equal(body.approved, false, JSON.stringify(args));
      t.match(
        body.violations.join('\n'),
        /ECONOMY\.BUDGET_EXCEEDED: spend 50000 exceeds/,
        JSON.stringify(args),
      );
    }
  }
});

t.test(
  'propose: a payment is multiplied by its count, and a nested payment adds to the outer one',
  async (t) => {
    const cloud = await kernelCloud(t);
    const lobe = await registerLobe(cloud, cloud.a);
    const pay = payerOn(cloud, lobe);
    // outside attack review: each of these was approved as a spend of 10 or 900 under the budget of 1000
    for (const [args, spend] of [
      [{ amount: 10, count: 1000 }, 10_000],
      [{ amount: 10, Quantity: 1000 }, 10_000],
      [{ amount: 10, qty: 150 }, 1_500],
      [{ transfers: [{ amount: 10, units: 200 }] }, 2_000],
      [{ amount: 900, payment: { amount: 900 } }, 1_800],
    ] as const) {
      const body = (await pay(args)).json();
      t.equal(body.approved, false, JSON.stringify(args));
      t.match(body.violations.join('\n'), new RegExp(`ECONOMY\\.BUDGET_EXCEEDED: spend ${spend} exceeds`));
    }
    const text = (await pay({ amount: 10, count: '1000' })).json();
    t.match(
      text.violations.join('\n'),
      /ECONOMY\.SPEND_ARGUMENT_INVALID: .* got "1000" as the count/,
      'a count a tool could read as a number refuses',
    );
  },
);
