import t from 'tap';
import fc from 'fast-check';
import {
  MAX_JOINTS,
  MAX_TRAJECTORY_POINTS,
  MotorCommandSchema,
  UnsignedMotorCommandSchema,
  ValidationError,
  conforms,
  validate,
} from '@pentagate/protocol';
import { motorCommand, unsignedMotorCommand } from './fixtures.js';
import { type RefusalCase, drop, refusesEach, set } from './refusal.js';

const commandCases: RefusalCase[] = [
  ['missing seq', drop('/seq'), '/seq'],
  ['missing mac', drop('/mac'), '/mac'],
  ['seq as a string', set('/seq', '7'), '/seq'],
  ['seq of 0 (seq starts at 1)', set('/seq', 0), '/seq'],
  ['fractional seq', set('/seq', 1.5), '/seq'],
  ['seq beyond 2^53 - 1 (JSON would round it)', set('/seq', 2 ** 53), '/seq'],
  ['negative epoch', set('/epoch', -1), '/epoch'],
  ['NaN epoch', set('/epoch', Number.NaN), '/epoch'],
  ['infinite validUntil', set('/validUntil', Number.POSITIVE_INFINITY), '/validUntil'],
  ['issuedAt before 1970', set('/issuedAt', -5), '/issuedAt'],
  ['version 2', set('/v', 2), '/v'],
  ['an extra member (outside the MAC contract)', set('/priority', 'high'), '/priority'],
  ['kid not 16 hex chars', set('/kid', 'k1'), '/kid'],
  ['robotId with an MQTT wildcard', set('/robotId', 'arm/#'), '/robotId'],
  ['robotId too long', set('/robotId', 'r'.repeat(65)), '/robotId'],
  ['empty intentId', set('/intentId', ''), '/intentId'],
  ['intentId longer than 128', set('/intentId', 'i'.repeat(129)), '/intentId'],
  ['upper-case digest', set('/cfgDigest', 'A'.repeat(64)), '/cfgDigest'],
  ['short digest', set('/evidenceDigest', 'a'.repeat(63)), '/evidenceDigest'],
  ['mac with base64 padding', set('/mac', `${'A'.repeat(42)}E=`), '/mac'],
  ['mac in standard base64 alphabet', set('/mac', `${'+'.repeat(42)}E`), '/mac'],
  ['non-canonical mac (unused bits set)', set('/mac', `${'A'.repeat(42)}B`), '/mac'],
  // Inside the setpoints union the error names the field of the closest variant, not the union itself.
  ['setpoints of an unknown kind', set('/setpoints/kind', 'dance'), '/setpoints/kind'],
  ['setpoints with an extra member', set('/setpoints/torqueOverride', true), '/setpoints/torqueOverride'],
  ['no trajectory points', set('/setpoints/points', []), '/setpoints/points'],
  ['duplicate joint names', set('/setpoints/jointNames', ['a', 'a']), '/setpoints/jointNames'],
  ['speedScale above 1', set('/setpoints/speedScale', 1.5), '/setpoints/speedScale'],
  [
    'NaN position',
    set('/setpoints/points/0/positionsRad/0', Number.NaN),
    '/setpoints/points/0/positionsRad/0',
  ],
  ['absurd effort', set('/setpoints/points/1/effortsNm/0', 1e9), '/setpoints/points/1/effortsNm/0'],
  [
    'negative timeFromStartMs',
    set('/setpoints/points/1/timeFromStartMs', -1),
    '/setpoints/points/1/timeFromStartMs',
  ],
];

refusesEach(t, 'motor command', MotorCommandSchema, motorCommand, commandCases);
refusesEach(t, 'unsigned motor command', UnsignedMotorCommandSchema, unsignedMotorCommand, [
  ['a mac (the unsigned form has none)', set('/mac', 'A'.repeat(43)), '/mac'],
]);

t.test('accepts each kind of setpoints', async (t) => {
  const twist = {
    ...motorCommand(),
    setpoints: {
      kind: 'twist',
      linearMps: { x: 0.5, y: 0, z: 0 },
      angularRadS: { x: 0, y: 0, z: -0.3 },
      durationMs: 200,
      speedScale: 0.25,
    },
  };
  const stop = { ...motorCommand(), setpoints: { kind: 'stop', reason: 'RISK.HUMAN_IN_RADIUS: 0.6 m' } };
  t.ok(conforms(MotorCommandSchema, twist), 'twist');
  t.ok(conforms(MotorCommandSchema, stop), 'stop');
  t.notOk(
    conforms(MotorCommandSchema, { ...twist, setpoints: { ...twist.setpoints, durationMs: 0 } }),
    'twist of 0 ms',
  );
  t.notOk(
    conforms(MotorCommandSchema, { ...twist, setpoints: { ...twist.setpoints, linearMps: { x: 1, y: 0 } } }),
    'twist missing an axis',
  );
  t.notOk(
    conforms(MotorCommandSchema, { ...stop, setpoints: { kind: 'stop', reason: '' } }),
    'stop without reason',
  );
});

t.test('bounds the size of a trajectory', async (t) => {
  const names = Array.from({ length: MAX_JOINTS }, (_, i) => `j${i}`);
  const point = (i: number) => ({ positionsRad: names.map(() => 0), timeFromStartMs: i });
  const at = (jointNames: string[], points: unknown[]) => ({
    ...motorCommand(),
    setpoints: { kind: 'joint', jointNames, points },
  });
  t.ok(conforms(MotorCommandSchema, at(names, [point(0)])), `${MAX_JOINTS} joints`);
  t.notOk(conforms(MotorCommandSchema, at([...names, 'extra'], [point(0)])), `${MAX_JOINTS + 1} joints`);
  const many = Array.from({ length: MAX_TRAJECTORY_POINTS }, (_, i) => point(i));
  t.ok(conforms(MotorCommandSchema, at(names, many)), `${MAX_TRAJECTORY_POINTS} points`);
  t.notOk(
    conforms(MotorCommandSchema, at(names, [...many, point(1)])),
    `${MAX_TRAJECTORY_POINTS + 1} points`,
  );
});

// A mutation replaces or deletes one member somewhere in the command, or adds a sibling, with an arbitrary value.
const anyValue = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, 2 ** 53, undefined, -1, 1e308),
  fc.string(),
);

function pointersOf(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    const p = `${prefix}/${k}`;
    out.push(p, ...pointersOf(v, p));
  }
  return out;
}

t.test('a mutated motor command is either still valid or refused with a path, never a crash', async (t) => {
  const pointers = pointersOf(motorCommand());
  let refused = 0;
  fc.assert(
    fc.property(
      fc.constantFrom(...pointers),
      fc.constantFrom('replace', 'delete', 'add'),
      anyValue,
      fc.string({ minLength: 1, maxLength: 8 }),
      (pointer, op, replacement, newKey) => {
        const value = motorCommand() as unknown as Record<string, unknown>;
        const keys = pointer.split('/').slice(1);
        const last = keys.pop()!;
        let parent: Record<string, unknown> = value;
        for (const k of keys) parent = parent[k] as Record<string, unknown>;
        if (op === 'replace') parent[last] = replacement;
        else if (op === 'delete') delete parent[last];
        // A sibling the schema did not list: an extra element in an array (a string key such as
        // "length" on an array is not a JSON member, and assigning it can throw in the test itself),
        // an extra member in an object.
        else if (Array.isArray(parent)) parent.splice(Number(last), 0, replacement);
        else parent[newKey] = replacement;
        try {
          validate(MotorCommandSchema, value, 'motor command');
        } catch (err) {
          if (!(err instanceof ValidationError)) throw err;
          refused++;
          if (err.issues.length === 0) return false;
          return err.issues.every((i) => i.path === '' || i.path.startsWith('/'));
        }
        return true;
      },
    ),
    { numRuns: 2000 },
  );
  t.ok(refused > 100, `most mutations are refused (${refused} of 2000)`);
});
