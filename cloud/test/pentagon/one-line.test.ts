/**
 * oneLine's shortcut for text without control characters keeps what the plain loop made: the first
 * ⌈maxChars⌉ code units with control characters turned into spaces.
 */
import fc from 'fast-check';
import t from 'tap';
import { oneLine } from '../../src/pentagon/one-line.js';

/** The loop oneLine was, as the reference. */
function oneLineByLoop(text: string, maxChars: number): string {
  let out = '';
  for (let i = 0; i < text.length && out.length < maxChars; i++) {
    const c = text.charCodeAt(i);
    out += c < 0x20 || c === 0x7f ? ' ' : text[i];
  }
  return out;
}

t.test('oneLine equals the plain loop', async (t) => {
  t.equal(oneLine('a\nb\u007fc', 10), 'a b c');
  t.equal(oneLine('abcdef', 3), 'abc');
  t.equal(oneLine('abcdef', 2.5), 'abc', 'a fractional limit keeps ⌈maxChars⌉ units, as the loop did');
  t.equal(oneLine('abc', 0), '');
  t.equal(oneLine('abc', -1), '');
  fc.assert(
    fc.property(
      fc.string({
        unit: fc.constantFrom('a', ' ', '\n', '\t', '\u0000', '\u007f', 'é', '\ud800', '\ud83d\ude00'),
        maxLength: 30,
      }),
      fc.oneof(fc.integer({ min: -3, max: 40 }), fc.double(), fc.constant(Number.POSITIVE_INFINITY)),
      (text, maxChars) => oneLine(text, maxChars) === oneLineByLoop(text, maxChars),
    ),
    { numRuns: 20000, seed: 61 },
  );
});
