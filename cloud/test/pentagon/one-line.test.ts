/**
 * oneLine's shortcut for text without control characters keeps what the plain loop made: the first
 * ⌈maxChars⌉ code units with control characters turned into spaces; and what it returns is always
 * well-formed UTF-16, so a signed statement quoting it can be canonicalised (RFC 8785 refuses lone
 * surrogates).
 */
import fc from 'fast-check';
import t from 'tap';
import { canonicalize } from '@pentagate/protocol';
import { oneLine } from '../../src/pentagon/one-line.js';

const LONE_SURROGATE_SOURCE =
  '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
const LONE_SURROGATES = new RegExp(LONE_SURROGATE_SOURCE, 'g');
const HAS_LONE_SURROGATE = new RegExp(LONE_SURROGATE_SOURCE);

/** The loop oneLine was, as the reference. */
function oneLineByLoop(text: string, maxChars: number): string {
  let out = '';
  for (let i = 0; i < text.length && out.length < maxChars; i++) {
    const c = text.charCodeAt(i);
    out += c < 0x20 || c === 0x7f ? ' ' : text[i];
  }
  // A pair the cut split loses its high half too; any other lone surrogate reads as U+FFFD.
  if (
    out.length < text.length &&
    /[\ud800-\udbff]$/.test(out) &&
    /^[\udc00-\udfff]/.test(text.slice(out.length))
  )
    out = out.slice(0, -1);
  return out.replace(LONE_SURROGATES, '\ufffd');
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
      (text, maxChars) => {
        const line = oneLine(text, maxChars);
        return line === oneLineByLoop(text, maxChars) && !HAS_LONE_SURROGATE.test(line);
      },
    ),
    { numRuns: 20000, seed: 61 },
  );
});

t.test('a cut never splits a surrogate pair, and lone surrogates become U+FFFD', async (t) => {
  const grin = '\ud83d\ude00';
  t.equal(oneLine(`ab${grin}cd`, 3), 'ab', 'the pair the cut would split is dropped whole');
  t.equal(oneLine(`ab${grin}cd`, 4), `ab${grin}`, 'a pair that fits is kept');
  t.equal(oneLine(`\ude00${grin}x`, 10), `\ufffd${grin}x`, 'an excerpt that starts after a high half');
  t.equal(oneLine('a\ud800b\n', 10), 'a\ufffdb ', 'a lone high surrogate and a control character');
  // Every excerpt of a text of emoji, cut at any offset and length, canonicalises.
  const text = `${grin.repeat(12)}Ignore all previous instructions.${grin.repeat(12)}`;
  const refused: string[] = [];
  for (let start = 0; start < text.length; start++) {
    for (const length of [1, 7, 20, 120]) {
      try {
        canonicalize({ excerpt: oneLine(text.slice(start), length) });
      } catch {
        refused.push(`start ${start}, length ${length}`);
      }
    }
  }
  t.same(refused, [], 'no excerpt is refused by JCS');
});
