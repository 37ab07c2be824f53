/**
 * Requests without a valid key count on their address's budget, and an IPv6 client counts by its /64: the
 * addresses of one /64 share one budget, another /64 has its own, and an IPv4-mapped address is its IPv4
 * address (address-budget.ts).
 */
import { generateEd25519 } from '@pentagate/crypto';
import t from 'tap';
import { addressBudgetKey } from '../../src/app/address-budget.js';
import { buildApp } from '../../src/app/build-app.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';

t.test('the budget key of an address', async (t) => {
  const cases: [string, string][] = [
    ['192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:0000:0000:0000:0009', '2001:db8:1:2::/64'],
    ['2001:db8::', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['::FFFF:c000:0207', '192.0.2.7'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.7', '64:ff9b:0:0::/64'],
  ];
  for (const [address, key] of cases) t.equal(addressBudgetKey(address), key, address);
});

t.test('IPv6 addresses of one /64 share the keyless budget; another /64 has its own', async (t) => {
  const store = new SqliteStore({ path: ':memory:' });
  const app = await buildApp({
    store,
    signingSeed: generateEd25519().privateKey,
    rateLimit: { max: 100, maxWithoutKey: 3, timeWindowMs: 60_000 },
  });
  t.teardown(() => app.close());
  const statusFrom = async (remoteAddress: string) =>
    (await app.inject({ method: 'GET', url: '/api/v1/keys', remoteAddress })).statusCode;
  const sameSubnet = ['2001:db8:5:6::1', '2001:db8:5:6::2', '2001:db8:5:6:a:b:c:d', '2001:db8:5:6::ffff'];
  const statuses = [];
  for (const address of sameSubnet) statuses.push(await statusFrom(address));
  t.same(statuses, [401, 401, 401, 429], 'four addresses of one /64: the fourth request is over its budget');
  t.equal(await statusFrom('2001:db8:5:7::1'), 401, 'the next /64 has a budget of its own');
  t.equal(await statusFrom('192.0.2.1'), 401, 'so has an IPv4 address');
});
