import t from 'tap';
import { examplePolicy, NOW_MS, call, codes, evaluate, ledger, recordOf } from './fixtures.js';

t.test(
  'a spend over the remaining budget is refused with the amount that fits; the remediated call clears',
  async (t) => {
    // 1 000 per hour, 300 spent, 200 reserved → 500 remain.
    const over = evaluate(call({ spend_amount: 750 }));
    t.equal(over.status, 'DENY');
    t.same(codes(over), ['ECONOMY.BUDGET_EXCEEDED']);
    t.same(over.remediation, [
      'spend 750 exceeds the remaining budget 500: lower it to 500 or less, or ask for approval',
    ]);
    t.equal(over.tiers.tier3.economic.budget.remaining, 500);
    t.equal(over.reserveAmount, 0);

    // Apply the remediation literally: take the number it names and resubmit.
    const fit = Number(/lower it to ([0-9.]+)/.exec(over.remediation[0] ?? '')?.[1]);
    const cleared = evaluate(call({ spend_amount: fit }), {
      history: [recordOf(over, 'crm.update', NOW_MS - 10)],
    });
    t.equal(cleared.status, 'ALLOW');
    t.equal(cleared.reserveAmount, 500);
    t.equal(cleared.tiers.tier3.simulation.projected.remainingAfter, 0);
    t.equal(cleared.tiers.tier3.simulation.projected.utilisationPercent, 100);
  },
);

t.test(
  'the reserve percentage is never spendable and an agent budget wins over the lobe budget',
  async (t) => {
    const treasury = {
      ...ledger,
      budgetLimit: 50_000,
      spentInWindow: 40_000,
      reservedInWindow: 0,
      windowMs: 86_400_000,
    };
    const agent = { agentId: 'treasury-bot', lobeName: 'lobe-7', domain: 'FINANCE', tenantId: 'tenant-1' };
    // 50 000 × 90% − 40 000 = 5 000 spendable.
    const v = evaluate(call({ spend_amount: 6000 }), { agent, ledger: treasury });
    t.equal(v.tiers.tier3.economic.budget.ruleId, 'treasury-bot-daily');
    t.equal(v.tiers.tier3.economic.budget.reservePercent, 10);
    t.match(v.remediation[0], /lower it to 5000 or less/);
    t.equal(evaluate(call({ spend_amount: 5000 }), { agent, ledger: treasury }).status, 'ALLOW');
  },
);

t.test('spending with no budget rule is refused; calls that spend nothing need none', async (t) => {
  const policy = { ...examplePolicy, budgets: [] };
  t.same(codes(evaluate(call({ spend_amount: 1 }), { policy })), ['ECONOMY.NO_BUDGET']);
  t.equal(evaluate(call(), { policy }).status, 'ALLOW');
});

t.test(
  'metabolic ledger: the fourth identical call within the window is refused, an older one is forgotten',
  async (t) => {
    const first = evaluate(call());
    const rec = (atMs: number) => recordOf(first, 'crm.update', atMs);
    t.equal(
      evaluate(call(), { history: [rec(NOW_MS - 3), rec(NOW_MS - 2)] }).status,
      'ALLOW',
      'third is fine',
    );
    const fourth = evaluate(call(), { history: [rec(NOW_MS - 3), rec(NOW_MS - 2), rec(NOW_MS - 1)] });
    t.same(codes(fourth), ['ECONOMY.LOOP_IDENTICAL']);
    t.equal(fourth.tiers.tier3.economic.metabolic.identicalInWindow, 3);
    t.match(fourth.remediation[0], /do not repeat the same crm.update call/);
    const old = [rec(NOW_MS - 60_001), rec(NOW_MS - 60_000), rec(NOW_MS - 1)];
    t.equal(evaluate(call(), { history: old }).status, 'ALLOW', 'outside the 60 s window');
    t.equal(
      evaluate(call(), { history: [rec(NOW_MS + 5), rec(NOW_MS + 6), rec(NOW_MS + 7)] }).status,
      'ALLOW',
      'future records ignored',
    );
  },
);

t.test('metabolic ledger: calls differing only in digits or case count as near-identical', async (t) => {
  const history = [];
  for (let i = 0; i < 6; i++) {
    const v = evaluate(call({ arguments: { customerId: `C-${1000 + i}`, phone: '+44 20 7946 0958' } }));
    history.push(recordOf(v, 'crm.update', NOW_MS - 100 + i));
  }
  t.equal(new Set(history.map((h) => h.fingerprint)).size, 6, 'exact fingerprints differ');
  t.equal(new Set(history.map((h) => h.nearFingerprint)).size, 1, 'near fingerprints agree');
  const seventh = evaluate(call({ arguments: { customerId: 'c-2000', phone: '+44 20 7946 0958' } }), {
    history,
  });
  t.same(codes(seventh), ['ECONOMY.LOOP_NEAR_IDENTICAL']);
  t.equal(seventh.tiers.tier3.economic.metabolic.nearIdenticalInWindow, 6);
});

t.test('metabolic ledger: call depth above the maximum is refused', async (t) => {
  t.equal(evaluate(call({ call_depth: 8 })).status, 'ALLOW');
  const deep = evaluate(call({ call_depth: 9 }));
  t.same(codes(deep), ['ECONOMY.CALL_DEPTH']);
  t.match(deep.remediation[0], /call_depth must be 8 or less/);
});

t.test('probing: after three denied variants of a tool, a fourth variant is refused', async (t) => {
  const history = [];
  for (const path of ['/etc/passwd', '/etc/shadow', '/etc/./hosts']) {
    const v = evaluate(call({ tool_name: 'fs.write', arguments: { path } }));
    t.equal(v.status, 'DENY');
    history.push(recordOf(v, 'fs.write', NOW_MS - 1000));
  }
  const probe = evaluate(call({ tool_name: 'fs.write', arguments: { path: '/tmp/harmless' } }), { history });
  t.same(codes(probe), ['ECONOMY.POLICY_PROBING']);
  t.equal(probe.tiers.tier3.economic.metabolic.deniedVariantsInWindow, 3);
  t.equal(
    evaluate(call({ tool_name: 'crm.update' }), { history }).status,
    'ALLOW',
    'other tools are unaffected',
  );
  // Stepping a spend down towards the budget the remediation names corrects the call (specification §1.6):
  // the corrected call is decided on its merits, not refused as probing.
  const overBudget = (
    [
      [5000, 'alpha'],
      [3000, 'beta'],
      [2000, 'gamma'],
    ] as const
  ).map(([spend, name]) => {
    const v = evaluate(
      call({ tool_name: 'fs.write', spend_amount: spend, arguments: { path: `/tmp/${name}` } }),
    );
    t.same(codes(v), ['ECONOMY.BUDGET_EXCEEDED'], `spend ${spend}`);
    return recordOf(v, 'fs.write', NOW_MS - 1000);
  });
  t.equal(
    evaluate(call({ tool_name: 'fs.write', spend_amount: 400, arguments: { path: '/tmp/delta' } }), {
      history: overBudget,
    }).status,
    'ALLOW',
    'budget refusals are not probing',
  );
  const mixed = overBudget.map((h) => ({ ...h, violations: [...h.violations, 'RISK.PROMPT_INJECTION'] }));
  t.same(
    codes(
      evaluate(call({ tool_name: 'fs.write', spend_amount: 400, arguments: { path: '/tmp/delta' } }), {
        history: mixed,
      }),
    ),
    ['ECONOMY.POLICY_PROBING'],
    'unless a denial also said something about the policy',
  );
  const consentOnly = history.map((h) => ({ ...h, violations: ['CONSENT.HUMAN_REQUIRED'] }));
  t.equal(
    evaluate(call({ tool_name: 'fs.write', arguments: { path: '/tmp/x' } }), { history: consentOnly }).status,
    'ALLOW',
    'waiting for a human is not a denial',
  );
  const off = { ...examplePolicy, metabolic: { ...examplePolicy.metabolic, probingEnabled: false } };
  t.equal(
    evaluate(call({ tool_name: 'fs.write', arguments: { path: '/tmp/x' } }), { history, policy: off }).status,
    'ALLOW',
  );
});

t.test('a spend over the budget by less than the shown precision is written in full', async (t) => {
  // 500 remain (see above); 500.0000001 would read "spend 500 exceeds the remaining budget 500"
  const over = evaluate(call({ spend_amount: 500.0000001 }));
  t.same(codes(over), ['ECONOMY.BUDGET_EXCEEDED']);
  t.same(over.remediation, [
    'spend 500.0000001 exceeds the remaining budget 500: lower it to 500 or less, or ask for approval',
  ]);
});

t.test('a spend too large to round to six decimals is written as given, not as Infinity', async (t) => {
  // amount() rounds with n × 1e6, which overflows above ~1.8e302: a kernel ledger:write of 1e308 (a
  // finite number the caller sent) was refused with "spend Infinity exceeds the remaining budget 500"
  const over = evaluate(call({ spend_amount: 1e308 }));
  t.same(codes(over), ['ECONOMY.BUDGET_EXCEEDED']);
  t.same(over.remediation, [
    'spend 1e+308 exceeds the remaining budget 500: lower it to 500 or less, or ask for approval',
  ]);
});

t.test('a spent budget is not remediated with "lower it to 0": the remedy is to wait or ask', async (t) => {
  // "lower it to 0 or less" asked a payment of 10 to be declared as spending nothing (self-correcting
  // route, specification §1.6: the model corrects its next attempt from the remediation)
  const spent = { ...ledger, spentInWindow: 800, reservedInWindow: 200 };
  const over = evaluate(call({ spend_amount: 10 }), { ledger: spent });
  t.same(codes(over), ['ECONOMY.BUDGET_EXCEEDED']);
  t.same(over.remediation, [
    'spend 10 exceeds the remaining budget 0: nothing remains in this budget window; wait until earlier spending leaves the window, or ask for approval',
  ]);
  t.notMatch(over.remediation[0], /lower it to/);
});
