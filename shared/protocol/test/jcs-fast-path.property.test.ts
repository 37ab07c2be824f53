/**
 * canonicalize() takes a fast path (a member-ordered copy given to JSON.stringify, jcs.ts) and falls back to
 * its general serialiser for anything the fast path cannot vouch for. These properties pin both against an
 * independent, deliberately plain RFC 8785 serialiser written here: on random motor commands (what the
 * edge MACs thousands of times a second) and on random JSON-like values full of the awkward cases —
 * integer-like and `__proto__` member names, surrogate pairs and lone surrogates, control characters, -0,
 * extreme exponents, NaN/Infinity and undefined — the bytes are equal, or both refuse.
 */
import { type UnsignedMotorCommand, canonicalBytes, canonicalize } from '@pentagate/protocol';
import fc from 'fast-check';
import t from 'tap';

/** RFC 8785 by the letter: §3.2.2.2 strings, §3.2.2.3 numbers, §3.2.3 member order by UTF-16 code units. */
function reference(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('non-finite');
    return Object.is(value, -0) ? '0' : String(value);
  }
  if (typeof value === 'string') {
    let out = '"';
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff) {
        const d = value.charCodeAt(i + 1);
        if (!(d >= 0xdc00 && d <= 0xdfff)) throw new Error('lone surrogate');
        out += value[i]! + value[i + 1]!;
        i++;
      } else if (c >= 0xdc00 && c <= 0xdfff) throw new Error('lone surrogate');
      else if (c === 0x22) out += '\\"';
      else if (c === 0x5c) out += '\\\\';
      else if (c === 0x08) out += '\\b';
      else if (c === 0x0c) out += '\\f';
      else if (c === 0x0a) out += '\\n';
      else if (c === 0x0d) out += '\\r';
      else if (c === 0x09) out += '\\t';
      else if (c < 0x20) out += `\\u${c.toString(16).padStart(4, '0')}`;
      else out += value[i];
    }
    return `${out}"`;
  }
  if (Array.isArray(value)) {
    return `[${value
      .map((x) => {
        if (x === undefined) throw new Error('undefined in array');
        return reference(x);
      })
      .join(',')}]`;
  }
  if (typeof value === 'object') {
    const members = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort((a, b) => {
        const n = Math.min(a.length, b.length);
        for (let i = 0; i < n; i++)
          if (a.charCodeAt(i) !== b.charCodeAt(i)) return a.charCodeAt(i) - b.charCodeAt(i);
        return a.length - b.length;
      });
    return `{${members.map((k) => `${reference(k)}:${reference((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  throw new Error(`not JSON: ${typeof value}`);
}

function outcome(f: () => string): { ok: true; text: string } | { ok: false } {
  try {
    return { ok: true, text: f() };
  } catch {
    return { ok: false };
  }
}

const anyDouble = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: -10, max: 10, noNaN: true }),
  fc.integer({ min: -1e6, max: 1e6 }),
  fc.constantFrom(-0, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, 0.1 + 0.2),
);
const ids = fc.string({ minLength: 1, maxLength: 24, unit: 'grapheme-ascii' });
const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/);
const points = (joints: number) =>
  fc.array(
    fc.record(
      {
        positionsRad: fc.array(anyDouble, { minLength: joints, maxLength: joints }),
        velocitiesRadS: fc.array(anyDouble, { minLength: joints, maxLength: joints }),
        effortsNm: fc.array(anyDouble, { minLength: joints, maxLength: joints }),
        timeFromStartMs: fc.integer({ min: 1, max: 600_000 }),
      },
      { requiredKeys: ['positionsRad', 'timeFromStartMs'] },
    ),
    { minLength: 1, maxLength: 25 },
  );
const setpoints = fc.oneof(
  fc.integer({ min: 1, max: 7 }).chain((n) =>
    fc.record(
      {
        kind: fc.constant('joint' as const),
        jointNames: fc.array(ids, { minLength: n, maxLength: n }),
        points: points(n),
        speedScale: fc.double({ min: 0.01, max: 1, noNaN: true }),
      },
      { requiredKeys: ['kind', 'jointNames', 'points'] },
    ),
  ),
  fc.record({
    kind: fc.constant('twist' as const),
    linearMps: fc.record({ x: anyDouble, y: anyDouble, z: anyDouble }),
    angularRadS: fc.record({ x: anyDouble, y: anyDouble, z: anyDouble }),
    durationMs: fc.integer({ min: 1, max: 60_000 }),
  }),
  fc.record({ kind: fc.constant('stop' as const), reason: fc.string({ unit: 'binary' }) }),
);
const command: fc.Arbitrary<UnsignedMotorCommand> = fc.record({
  v: fc.constant(1 as const),
  kid: fc.stringMatching(/^[0-9a-f]{16}$/),
  robotId: ids,
  epoch: fc.nat(),
  seq: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  issuedAt: fc.nat({ max: 4_102_444_800_000 }),
  validUntil: fc.nat({ max: 4_102_444_800_000 }),
  intentId: ids,
  setpoints,
  cfgDigest: hex64,
  evidenceDigest: hex64,
}) as fc.Arbitrary<UnsignedMotorCommand>;

t.test('a motor command canonicalises to exactly the RFC 8785 bytes', async (t) => {
  fc.assert(
    fc.property(command, (cmd) => {
      const expected = reference(cmd);
      if (canonicalize(cmd) !== expected) return false;
      return Buffer.from(canonicalBytes(cmd)).equals(Buffer.from(expected, 'utf8'));
    }),
    { numRuns: 2000, seed: 8785 },
  );
  t.pass('2000 random commands');
});

const awkwardKey = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom(
    '__proto__',
    '0',
    '1',
    '10',
    '9',
    '01',
    'toJSON',
    'constructor',
    '\u00e9',
    '\ud83d\ude00',
    '\ud800',
  ),
);
const awkwardLeaf = fc.oneof(
  anyDouble,
  fc.constantFrom(
    Number.NaN,
    Number.POSITIVE_INFINITY,
    undefined,
    null,
    true,
    false,
    '\u2028',
    'a"b\\c\u0001',
  ),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.string({
    unit: fc.integer({ min: 0xd7f0, max: 0xe010 }).map((c) => String.fromCharCode(c)),
    maxLength: 4,
  }),
);
const awkward = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, awkwardLeaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.array(fc.tuple(awkwardKey, tie('value')), { maxLength: 5 }).map((entries) => {
    const o: Record<string, unknown> = {};
    for (const [k, v] of entries)
      Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
    return o;
  }),
})).value;

t.test('any JSON-like value: the same bytes as the plain serialiser, or both refuse', async (t) => {
  let refused = 0;
  fc.assert(
    fc.property(awkward, (value) => {
      const got = outcome(() => canonicalize(value));
      const want = outcome(() => reference(value));
      if (!want.ok) refused++;
      return got.ok === want.ok && (!got.ok || !want.ok || got.text === want.text);
    }),
    { numRuns: 5000, seed: 20261123 },
  );
  t.ok(refused > 0, `some values are refused by both (${refused})`);
});

t.test('member order: many members, in any insertion order, sort by UTF-16 code units', async (t) => {
  // Either side of the sorter's switch from insertion sort to the built-in sort (16 names), with names that
  // share prefixes, differ only past the BMP or by case, so a wrong comparison shows up.
  const name = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 5 }),
    fc.constantFrom('a', 'aa', 'ab', 'B', 'b', '\u00e9', '\ud83d\ude00', '\uff61', 'a\u0000', 'Z'),
  );
  let longest = 0;
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.tuple(name, anyDouble), { maxLength: 40, size: 'max', selector: ([k]) => k }),
      (entries) => {
        const o: Record<string, unknown> = {};
        for (const [k, v] of entries)
          Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
        longest = Math.max(longest, entries.length);
        const got = outcome(() => canonicalize(o));
        const want = outcome(() => reference(o));
        return got.ok === want.ok && (!got.ok || !want.ok || got.text === want.text);
      },
    ),
    { numRuns: 3000, seed: 3_2_3 },
  );
  t.ok(longest > 16, `objects beyond the insertion-sort bound were tried (${longest} members)`);
});

t.test(
  'the fast path hands integer-like, __proto__ and surrogate cases to the general serialiser',
  async (t) => {
    t.equal(canonicalize({ 10: 'a', 9: 'b', a: [1, -0, 1e21] }), '{"10":"a","9":"b","a":[1,0,1e+21]}');
    const proto = JSON.parse('{"__proto__":{"x":1},"b":2}');
    t.equal(canonicalize(proto), '{"__proto__":{"x":1},"b":2}');
    t.equal(canonicalize({ e: '\ud83d\ude00', d: 'x' }), '{"d":"x","e":"\ud83d\ude00"}');
    t.throws(() => canonicalize({ s: '\udc00' }), { code: 'JCS_UNREPRESENTABLE' });
    t.throws(() => canonicalize([1, Number.NaN]), { code: 'JCS_UNREPRESENTABLE' });
    t.throws(() => canonicalize([1, undefined]), { code: 'JCS_UNREPRESENTABLE' });
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    t.throws(() => canonicalize(cyclic), /cyclic/);
  },
);

/** A deep copy whose objects have their members inserted in UTF-16 order (as the edge builds commands). */
function inMemberOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inMemberOrder);
  if (value === null || typeof value !== 'object') return value;
  const o: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) {
    Object.defineProperty(o, k, {
      value: inMemberOrder((value as Record<string, unknown>)[k]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return o;
}

t.test('objects already in member order are serialised as they are, to the same bytes', async (t) => {
  fc.assert(
    fc.property(command, (cmd) => canonicalize(inMemberOrder(cmd)) === reference(cmd)),
    { numRuns: 1000, seed: 6962 },
  );
  fc.assert(
    fc.property(awkward, (value) => {
      const sorted = inMemberOrder(value);
      const got = outcome(() => canonicalize(sorted));
      const want = outcome(() => reference(sorted));
      return got.ok === want.ok && (!got.ok || !want.ok || got.text === want.text);
    }),
    { numRuns: 3000, seed: 8785 },
  );
  // in order, with an undefined member (left out) and a nested object that is not (copied)
  t.equal(canonicalize({ a: 1, b: undefined, c: { z: 1, y: [2] } }), '{"a":1,"c":{"y":[2],"z":1}}');
  t.equal(canonicalize({ a: { b: 1 }, c: undefined }), '{"a":{"b":1}}');
});
