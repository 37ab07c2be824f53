import t from 'tap';
import { InvalidInputError, PentagateError } from '@pentagate/protocol';
import { hashPassword, parsePasswordHash, verifyPassword } from '../../src/broker/password-hash.js';
import { loadBrokerUsers } from '../../src/broker/broker-users.js';

const FAST = { logN: 10, r: 8, p: 1 };

t.test('a hash verifies its password and nothing else', async (t) => {
  const stored = await hashPassword('correct horse', FAST);
  t.match(stored, /^scrypt\$10\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
  t.ok(await verifyPassword('correct horse', stored));
  t.notOk(await verifyPassword('correct horsE', stored));
  t.notOk(await verifyPassword('', stored));
  t.not(await hashPassword('correct horse', FAST), stored, 'a fresh salt every time');
});

t.test('a malformed stored hash is refused with the expected layout', async (t) => {
  t.throws(() => parsePasswordHash('plain-text'), InvalidInputError);
  t.throws(() => parsePasswordHash('plain-text'), { message: /expected scrypt\$<logN>/ });
  const weak = (await hashPassword('x', FAST)).replace('scrypt$10$', 'scrypt$4$');
  t.throws(() => parsePasswordHash(weak), { message: /expected logN in 10\.\.20/ });
});

t.test('the user table refuses bad entries', async (t) => {
  const cases: [unknown, RegExp][] = [
    [{ username: '', role: 'robot', robotId: 'r1', password: 'x' }, /username: expected a non-empty string/],
    [
      { username: 'a', role: 'admin', robotId: 'r1', password: 'x' },
      /role: expected one of edge, sensor, planner/,
    ],
    [{ username: 'a', role: 'robot', robotId: 'r/1', password: 'x' }, /robotId: expected 1-64 letters/],
    [{ username: 'a', role: 'robot', password: 'x' }, /robotId: required for role robot/],
    [{ username: 'a', role: 'robot', robotId: 'r1' }, /exactly one of password or passwordHash/],
    [{ username: 'a', role: 'robot', robotId: 'r1', passwordHash: 'nope' }, /passwordHash: expected scrypt/],
    [{ username: 'a b', role: 'robot', robotId: 'r1', password: 'x' }, /username: expected no spaces/],
    [{ username: 'a', role: 'sensor', robotId: 'r1', password: 'x' }, /sources: required for role sensor/],
    [
      { username: 'a', role: 'planner', robotId: 'r1', sources: ['imu'], password: 'x' },
      /role planner publishes no telemetry/,
    ],
    [
      { username: 'a', role: 'sensor', robotId: 'r1', sources: ['a/b'], password: 'x' },
      /sources: expected an array of source names/,
    ],
    [
      { username: 'a', role: 'watcher', robotId: 'r1', password: 'x', sources: [] },
      /role watcher publishes no telemetry/,
    ],
  ];
  for (const [user, message] of cases) {
    // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
    const err = await loadBrokerUsers([user as any]).catch((e: unknown) => e);
    t.type(err, PentagateError);
    t.match(err, { message }, String(message));
  }
  const dup = { username: 'a', role: 'operator' as const, password: 'x' };
  await t.rejects(loadBrokerUsers([dup, dup]), { message: /appears twice/ });
  const sensor = (username: string) => ({
    username,
    role: 'sensor' as const,
    robotId: 'r1',
    sources: ['lidar'],
    password: 'x',
  });
  await t.rejects(loadBrokerUsers([sensor('a'), sensor('b')]), {
    message: /"lidar" of robot r1 is already bound to "a"/,
  });
});

t.test('clear-text passwords are replaced by hashes on load', async (t) => {
  const table = await loadBrokerUsers([{ username: 'a', role: 'operator', password: 'open sesame' }]);
  const user = table.byName.get('a');
  t.notMatch(JSON.stringify(user), /open sesame/);
  t.notMatch(JSON.stringify(table), /open sesame/);
  t.ok(await verifyPassword('open sesame', user?.passwordHash ?? ''));
});
