/** storableText / storableJson: what no store or canonical form here can hold becomes U+FFFD (or null). */
import t from 'tap';
import { canonicalize, storableJson, storableText } from '../src/index.js';

t.test('U+0000 and lone surrogates become U+FFFD; pairs and other text stay', async (t) => {
  t.equal(storableText('a\u0000b'), 'a\uFFFDb');
  t.equal(storableText('x\uD83D'), 'x\uFFFD', 'a high surrogate cut from its pair');
  t.equal(storableText('\uDE00y'), '\uFFFDy', 'a low surrogate alone');
  t.equal(storableText('😀 ok'), '😀 ok');
});

t.test(
  'storableJson reaches every string and member name, and copies nothing that needs no change',
  async (t) => {
    const clean = { a: ['x', 1, null, true], b: { c: 'd' } };
    t.equal(storableJson(clean), clean, 'the same object back');
    const dirty = { 'k\u0000': ['ok', 'v\uD800'], n: { d: Number.POSITIVE_INFINITY, e: 2 } };
    const fixed = storableJson(dirty);
    t.same(fixed, { 'k\uFFFD': ['ok', 'v\uFFFD'], n: { d: null, e: 2 } });
    t.doesNotThrow(() => canonicalize(fixed), 'RFC 8785 can write it');
    t.same(dirty['k\u0000'], ['ok', 'v\uD800'], 'the input is left as it was');
  },
);
