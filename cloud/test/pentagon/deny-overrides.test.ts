// The one combiner every cloud decision uses (pentagon arbitration and the kernel's action rules): checked
// against its definition on every mix of effects, and that it names exactly the items of the winning effect.
import fc from 'fast-check';
import t from 'tap';
import { denyOverrides, type Effect } from '../../src/pentagon/deny-overrides.js';

const effects: Effect[] = ['deny', 'require-human', 'hold'];

t.test('deny overrides require-human overrides hold; nothing is ALLOW', async (t) => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...effects), { maxLength: 12 }), (mix) => {
      const items = mix.map((effect, i) => ({ i, effect }));
      const { status, deciding } = denyOverrides(items, (x) => x.effect);
      const winner = effects.find((e) => mix.includes(e));
      const expected =
        winner === 'deny'
          ? 'DENY'
          : winner === 'require-human'
            ? 'REQUIRE_HUMAN'
            : winner === 'hold'
              ? 'HELD_FOR_VETO'
              : 'ALLOW';
      return (
        status === expected &&
        deciding.length === mix.filter((e) => e === winner).length &&
        deciding.every((d) => d.effect === winner)
      );
    }),
    { numRuns: 2000, seed: 3 },
  );
  t.same(
    denyOverrides([], () => 'deny'),
    { status: 'ALLOW', deciding: [] },
  );
  t.same(denyOverrides(['a', 'b'], (x) => (x === 'a' ? 'hold' : 'deny')).deciding, ['b']);
});
