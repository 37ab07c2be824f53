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
