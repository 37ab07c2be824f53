/**
 * readJson is the one reader of JSON from outside: I-JSON (RFC 7493) plus size and depth limits. Each
 * refusal below was accepted by JSON.parse, which is what makes it dangerous behind a gate.
 */
import fc from 'fast-check';
import t from 'tap';
import {
  DEFAULT_MAX_JSON_DEPTH,
  InvalidInputError,
  JsonTooLargeError,
  hasLoneSurrogate,
  readJson,
} from '@pentagate/protocol';

const read = (text: string | Uint8Array, maxDepth?: number) =>
  readJson(text, { what: 'frame', ...(maxDepth === undefined ? {} : { maxDepth }) });

t.test('refuses a member name given twice, whichever value comes last', async (t) => {
  for (const text of [
    '{"nearestHumanM":0.3,"nearestHumanM":null}',
    '{"seq":99,"seq":1}',
    '{"a":{"b":1,"c":2,"b":1}}',
    '[{"x":1},{"x":1,"x":1}]',
    '{"a":1,"\\u0061":2}',
    '{"a\\n":1,"a\\u000a":2}',
  ]) {
    t.throws(
      () => read(text),
      { name: 'InvalidInputError', message: /member name once.*again at offset/ },
      text,
    );
  }
  const many = `{${Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(',')},"k7":0}`;
  t.throws(() => read(many), /"k7" again/, 'in an object large enough to be searched by a Set');
});

t.test('accepts the same name in sibling and nested objects', async (t) => {
  t.same(read('{"a":{"a":1},"b":[{"a":2},{"a":3}],"c":"a"}'), {
    a: { a: 1 },
    b: [{ a: 2 }, { a: 3 }],
    c: 'a',
  });
  t.same(read('{"a":1,"A":2,"a ":3}'), { a: 1, A: 2, 'a ': 3 });
  t.same(read(Buffer.from('{"n":"\\"}","m":"{\\"n\\":1}"}')), { n: '"}', m: '{"n":1}' });
});

t.test('refuses lone surrogates in values and in member names, escaped or raw', async (t) => {
  for (const text of [
    '"\\ud800"',
    '{"k":"a\\udc00b"}',
    '{"\\ud800":1}',
    '["\\ud83d\\u0041"]',
    '"\ud800"',
    '{"\udfff":1}',
  ]) {
    t.throws(() => read(text), /lone surrogate/, JSON.stringify(text));
  }
  t.same(read('["\\ud83d\\ude00","😀"]'), ['😀', '😀'], 'pairs are fine');
  t.ok(hasLoneSurrogate('x\udc00'));
  t.notOk(hasLoneSurrogate('x😀'));
});

t.test('with refuseNul, refuses U+0000 in values and member names, and only then', async (t) => {
  const strict = (text: string) => readJson(text, { what: 'request body', refuseNul: true });
  for (const [text, pointer] of [
    ['{"memo":"a\\u0000b"}', '/memo'],
    ['{"a":[1,"\\u0000"]}', '/a/1'],
    ['{"k\\u0000":1}', '/k\u0000'],
  ] as const) {
    t.throws(
      () => strict(text),
      { name: 'InvalidInputError', message: /without U\+0000/, details: { issues: [{ path: pointer }] } },
      text,
    );
    t.doesNotThrow(() => read(text), `${text}: accepted without the option, as JSON allows`);
  }
  // an escaped backslash followed by the letters u0000 is six characters of text, not U+0000
  t.same(strict('{"path":"C:\\\\u0000"}'), { path: 'C:\\u0000' });
  t.same(strict('{"x":"\\u0001\\u00e9"}'), { x: '\u0001é' });
});

t.test('refuses numbers that overflow a double, anywhere', async (t) => {
  for (const text of ['1e309', '-1e309', '{"arguments":{"x":[1,{"y":-1E+400}]}}', `1${'0'.repeat(400)}`]) {
    t.throws(() => read(text), /IEEE 754 double range.*not finite|lose precision/, text.slice(0, 40));
  }
  t.same(
    read('[1.7976931348623157e308,5e-324,1e-400,-0.0,1E2]'),
    [1.7976931348623157e308, 5e-324, 0, -0, 100],
  );
});

t.test('refuses integers beyond 2^53 - 1 but not safe ones', async (t) => {
  t.throws(() => read('{"seq":9007199254740993}'), /lose precision/);
  t.same(read('{"seq":9007199254740991,"x":-9007199254740991}'), {
    seq: 9007199254740991,
    x: -9007199254740991,
  });
});

t.test('refuses nesting deeper than the limit, and accepts it at the limit', async (t) => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  t.throws(() => read(nested(3000)), /nesting at most 64 deep/);
  t.throws(() => read(`{"a":${'{"a":'.repeat(64)}1${'}'.repeat(65)}`), /nesting/);
  t.doesNotThrow(() => read(nested(DEFAULT_MAX_JSON_DEPTH)));
  t.throws(() => read(nested(5), 4), /at most 4 deep/);
});

t.test('refuses bytes that are not UTF-8 instead of replacing them', async (t) => {
  t.throws(() => read(Uint8Array.from([0x22, 0xff, 0x66, 0x7a, 0x22])), /not valid UTF-8/);
});

/** An integer beyond 2^53 - 1 that JSON.stringify writes in full (below 1e21, no exponent): refused. */
function hasUnsafeInteger(value: unknown): boolean {
  if (typeof value === 'number')
    return Number.isInteger(value) && !Number.isSafeInteger(value) && Math.abs(value) < 1e21;
  if (value === null || typeof value !== 'object') return false;
  return Object.values(value).some(hasUnsafeInteger);
}

/** readJson refuses a member named __proto__ (2e54eb6); fc.jsonValue() generates one now and then. */
function hasProtoMember(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (!Array.isArray(value) && Object.hasOwn(value, '__proto__')) return true;
  return Object.values(value).some(hasProtoMember);
}

t.test(
  'agrees with JSON.parse on every JSON value without duplicates, lone surrogates or unsafe integers',
  async (t) => {
    let compared = 0;
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        if (hasLoneSurrogate(text) || hasUnsafeInteger(value) || hasProtoMember(value)) return;
        compared++;
        t.same(readJson(Buffer.from(text), { what: 'x', maxDepth: 1000 }), JSON.parse(text));
      }),
      { numRuns: 500 },
    );
    t.ok(compared > 400, `compared ${compared} of 500 values`);
  },
);

t.test('errors are InvalidInputError naming what was read', async (t) => {
  try {
    read('{"a":1,"a":2}');
    t.fail('accepted');
  } catch (err) {
    t.ok(err instanceof InvalidInputError);
    t.match((err as Error).message, /^frame: /);
  }
});

t.test('refuses a member named __proto__, however it is escaped', async (t) => {
  for (const text of [
    '{"__proto__":{"admin":true}}',
    '{"a":[{"\\u005f_proto__":1}]}',
    '{"__pr\\u006fto__":null}',
  ]) {
    t.throws(() => read(text), /"__proto__"/, text);
  }
  t.same(read('{"proto":1,"x":"__proto__"}'), { proto: 1, x: '__proto__' }, 'as a value it is only text');
});

/** Object members and array elements in all, counted on the parsed value. */
function valueCount(v: unknown): number {
  if (Array.isArray(v)) return v.length + v.reduce((n: number, x) => n + valueCount(x), 0);
  if (typeof v === 'object' && v !== null) {
    const values = Object.values(v);
    return values.length + values.reduce((n: number, x) => n + valueCount(x), 0);
  }
  return 0;
}

t.test('maxValues counts every member and element, and refuses one more than the limit', async (t) => {
  const tricky = ' { "a,b" : [ ] , "c" : { } , "d\\",{[" : [ 1 , [ 2 ] , "x,y" ] } ';
  t.equal(valueCount(JSON.parse(tricky)), 7);
  t.same(readJson(tricky, { what: 'x', maxValues: 7 }), JSON.parse(tricky));
  t.throws(() => readJson(tricky, { what: 'body', maxValues: 6 }), {
    name: 'JsonTooLargeError',
    message: /^body: expected at most 6 object members and array elements in all, got more by offset \d+$/,
  });
  const error = (() => {
    try {
      readJson('[1,2,3]', { what: 'x', maxValues: 2 });
    } catch (err) {
      return err;
    }
  })();
  t.ok(error instanceof JsonTooLargeError && error instanceof InvalidInputError, 'a kind of bad input');
  t.throws(() => readJson('[1,2]', { what: 'x', maxBytes: 3 }), JsonTooLargeError, 'bytes too');
  let compared = 0;
  fc.assert(
    fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
      const text = JSON.stringify(value, null, pretty ? 2 : undefined);
      if (hasLoneSurrogate(text) || hasUnsafeInteger(value) || hasProtoMember(value)) return;
      const n = valueCount(value);
      compared++;
      t.same(readJson(text, { what: 'x', maxDepth: 1000, maxValues: n }), JSON.parse(text));
      if (n > 0)
        t.throws(() => readJson(text, { what: 'x', maxDepth: 1000, maxValues: n - 1 }), JsonTooLargeError);
    }),
    { numRuns: 500, seed: 68 },
  );
  t.ok(compared > 400, `compared ${compared} of 500 values`);
});

t.test(
  'each I-JSON refusal names the JSON Pointer of the value or member, in the message and details',
  async (t) => {
    // An offset alone does not tell a caller which field to fix (RFC 6901 pointers, as validation issues give)
    const cases: [string, string, RegExp][] = [
      ['{"tool_call":{"arguments":{"to":"x\\ud800"}}}', '/tool_call/arguments/to', /lone surrogate/],
      ['{"a":[1,{"b":2},{"c":"\\udc00"}]}', '/a/2/c', /lone surrogate/],
      // a lone surrogate never reaches the pointer itself: details are JSON sent back to the caller
      ['{"a":{"\\ud800k":1}}', '/a/\ufffdk', /lone surrogate/],
      ['{"spend":{"amount":1e400}}', '/spend/amount', /not finite/],
      ['[0,123456789012345678901234567890]', '/1', /lose precision/],
      ['{"a":{"x":1,"y":2,"x":3}}', '/a/x', /"x" again/],
      ['{"q":{"__pro\\u0074o__":{}}}', '/q/__proto__', /__proto__/],
      ['{"a/b":{"m~n":[1e999]}}', '/a~1b/m~0n/0', /not finite/],
      ['{"a":"\\"}\\"[","b":1e999}', '/b', /not finite/],
      ['"\\ud800"', '', /lone surrogate/],
    ];
    for (const [text, path, problem] of cases) {
      let err: InvalidInputError | undefined;
      try {
        read(text);
      } catch (e) {
        err = e as InvalidInputError;
      }
      t.type(err, InvalidInputError, text);
      t.match(err?.message, problem, text);
      t.match(err?.message, / at offset \d+/, `${text}: the offset stays`);
      t.ok(err?.message.includes(`, JSON Pointer ${JSON.stringify(path)}`), `${text}: ${err?.message}`);
      t.same(err?.details, { issues: [{ path, message: err?.message.replace(/^frame: /, '') }] }, text);
    }
  },
);

t.test('a blank document is named as such, not as malformed text', async (t) => {
  t.throws(() => read(''), { message: /^frame: expected JSON, got nothing$/ });
  t.throws(() => read(' \r\n\t'), { message: /^frame: expected JSON, got only whitespace$/ });
  t.throws(() => read(' {'), { message: /^frame: expected JSON, got malformed text \(/ });
});
