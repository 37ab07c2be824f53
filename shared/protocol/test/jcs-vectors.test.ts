import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { JcsError, canonicalBytes, canonicalize, readJson } from '@pentagate/protocol';

const dir = join(import.meta.dirname, '../../../../shared/vectors/jcs/testdata');

t.test(
  'RFC 8785 vectors from ../shared/vectors/jcs',
  { skip: existsSync(dir) ? false : `no vectors at ${dir}` },
  async (t) => {
    const names = readdirSync(join(dir, 'input'));
    t.ok(names.length >= 6, 'found the vector files');
    for (const name of names) {
      const input = readJson(readFileSync(join(dir, 'input', name), 'utf8'), { what: name });
      const expected = readFileSync(join(dir, 'output', name), 'utf8');
      const hex = readFileSync(join(dir, 'outhex', name.replace('.json', '.txt')), 'utf8').replace(
        /\s+/g,
        '',
      );
      t.equal(canonicalize(input), expected, `${name}: canonical text`);
      t.equal(Buffer.from(canonicalBytes(input)).toString('hex'), hex, `${name}: canonical bytes`);
    }
  },
);

t.test('refuses values JCS cannot represent', async (t) => {
  for (const [label, value] of [
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['bigint', 2n ** 60n],
    ['undefined in array', [undefined]],
    ['function', () => 1],
    ['lone surrogate', '\ud800x'],
    ['lone low surrogate', 'x\udc00'],
    ['bytes', new Uint8Array(2)],
  ] as const) {
    t.throws(() => canonicalize({ a: [value] }), JcsError, label);
  }
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  t.throws(() => canonicalize(cyclic), /cyclic/);
  t.match(() => canonicalize({ a: { b: [1, Number.NaN] } }), Function);
  t.throws(() => canonicalize({ a: { b: [1, Number.NaN] } }), /at \/a\/b\/1/, 'names the path');
});

t.test('number and member-order edge cases', async (t) => {
  t.equal(canonicalize(-0), '0');
  t.equal(canonicalize(1e21), '1e+21');
  t.equal(canonicalize(1e-7), '1e-7');
  t.equal(canonicalize({ b: 1, a: undefined, '\u00e9': 2, A: 3 }), '{"A":3,"b":1,"é":2}');
  t.equal(canonicalize('\u0001\u001f'), '"\\u0001\\u001f"');
});

t.test('strict JSON reading', async (t) => {
  t.throws(() => readJson('{"seq": 9007199254740993}', { what: 'cmd' }), /2\^53/);
  t.same(readJson('{"seq": 9007199254740991, "s": "9007199254740993"}', { what: 'cmd' }), {
    seq: 9007199254740991,
    s: '9007199254740993',
  });
  t.same(readJson('[1E30, -12.5e3, "a\\"b"]', { what: 'x' }), [1e30, -12500, 'a"b']);
  t.throws(() => readJson('{"a":', { what: 'intent' }), /intent: expected JSON, got malformed/);
  t.throws(() => readJson('x'.repeat(20), { what: 'big', maxBytes: 10 }), /at most 10 bytes/);
  t.throws(() => readJson(new Uint8Array([0x22, 0xff, 0x22]), { what: 'bin' }), /UTF-8/);
});
