/**
 * The replay difference of two JSON values names each member present on one side only by its own members:
 * a member called like a prototype member (`constructor`, `toString`) missing on the other side is a
 * difference of presence, not a comparison with a function read through the prototype.
 */
import t from 'tap';
import { jsonDiff } from '../../src/kernel/json-diff.js';

t.test('members named like prototype members are compared as own members', async (t) => {
  t.same(jsonDiff({ constructor: 1 }, {}), [{ path: '/constructor', original: 1 }]);
  t.same(jsonDiff({}, { toString: 'x' }), [{ path: '/toString', replayed: 'x' }]);
  t.same(jsonDiff({ a: { valueOf: 2 } }, { a: { valueOf: 2 } }), [], 'equal on both sides: no difference');
});
