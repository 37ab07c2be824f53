import fc from 'fast-check';
import t from 'tap';
import {
  InvalidInputError,
  describeValue,
  fromBase64,
  fromBase64Url,
  fromHex,
  newId,
  toBase64,
  toBase64Url,
  toHex,
  ID_PATTERN,
} from '@pentagate/protocol';

t.test('encodings round-trip any bytes', async (t) => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
      t.same(fromBase64Url(toBase64Url(bytes), 'x'), bytes);
      t.same(fromBase64(toBase64(bytes), 'x'), bytes);
      t.same(fromHex(toHex(bytes), 'x'), bytes);
    }),
  );
});

t.test('decoders refuse non-canonical and foreign encodings with the reason', async (t) => {
  t.throws(() => fromBase64Url('AAA=', 'mac'), /mac: expected base64url, got characters outside/);
  t.throws(() => fromBase64Url('AB', 'mac'), /non-canonical/, 'stray trailing bits');
  t.throws(() => fromBase64Url('A', 'mac'), /non-canonical/);
  t.throws(() => fromBase64('AAA', 'sig'), /expected base64/, 'missing padding');
  t.throws(() => fromBase64('AB==', 'sig'), /non-canonical/);
  t.throws(() => fromHex('ABCD', 'digest'), /outside its alphabet/, 'upper-case hex');
  t.throws(() => fromHex('abc', 'digest'), /outside its alphabet/, 'odd length');
  t.throws(() => fromHex(42, 'digest'), InvalidInputError);
  t.throws(() => fromBase64Url(toBase64Url(new Uint8Array(31)), 'key', 32), /key: expected 32 bytes, got 31/);
});

t.test('ids are prefixed, unique and time-ordered', async (t) => {
  const a = newId('dec', 1_700_000_000_000);
  const b = newId('dec', 1_700_000_000_001);
  t.match(a, new RegExp(ID_PATTERN));
  t.ok(a < b, 'later id sorts after');
  t.not(newId('dec'), newId('dec'));
});

t.test('ids drawn across many refills of the entropy pool never repeat a random part', async (t) => {
  // 5,000 ids use ~12 refills of the 4 KiB pool: a pool handed out twice, or bytes reused across a
  // refill boundary, would repeat random parts; the same millisecond makes the time part equal.
  // Characters 10.. of the base32 body hold only random bits (the first 48 bits are the time).
  const timeParts = new Set<string>();
  const randomParts = new Set<string>();
  const symbols = new Set<string>();
  for (let i = 0; i < 5000; i++) {
    const id = newId('dec', 1_700_000_000_000);
    timeParts.add(id.slice(0, 4 + 9));
    const random = id.slice(4 + 10);
    randomParts.add(random);
    for (const c of random) symbols.add(c);
  }
  t.equal(timeParts.size, 1, 'one time part');
  t.equal(randomParts.size, 5000, 'every random part is new');
  t.equal(symbols.size, 32, 'the random parts use the whole Crockford alphabet');
});

t.test('describeValue names what came', async (t) => {
  t.equal(describeValue(null), 'null');
  t.equal(describeValue([1, 2]), 'array of length 2');
  t.equal(describeValue(new Uint8Array(3)), 'Uint8Array of length 3');
  t.equal(describeValue('x'.repeat(50)), 'string of length 50');
  t.equal(describeValue('ab'), '"ab"');
  t.equal(describeValue(-3), '-3');
  t.equal(describeValue(undefined), 'nothing');
  t.equal(describeValue({}), 'object');
});
