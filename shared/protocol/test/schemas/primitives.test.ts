import t from 'tap';
import fc from 'fast-check';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { TypeSystemPolicy } from '@sinclair/typebox/system';
import {
  IsoTimestampSchema,
  MAX_UNIX_MS,
  MotorCommandSchema,
  UnixMsSchema,
  base64OfBytesSchema,
  base64Schema,
  base64UrlOfBytesSchema,
  conforms,
  toBase64,
  toBase64Url,
} from '@pentagate/protocol';
import { motorCommand } from './fixtures.js';

t.test('exact-length base64 schemas accept exactly the canonical encodings', async () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 0, maxLength: 70 }), (bytes) => {
      const n = bytes.length;
      const std = toBase64(bytes);
      const url = toBase64Url(bytes);
      return (
        conforms(base64OfBytesSchema(n), std) &&
        conforms(base64UrlOfBytesSchema(n), url) &&
        !conforms(base64OfBytesSchema(n + 1), std) &&
        !conforms(base64UrlOfBytesSchema(n + 1), url) &&
        (n === 0 || conforms(base64Schema(200, 0), std))
      );
    }),
  );
});

t.test('base64 schemas refuse an encoding whose unused bits are set', async (t) => {
  // 1 byte → 2 symbols; 0xff is "/w==" canonically and "/x==" would decode to the same byte.
  t.ok(conforms(base64OfBytesSchema(1), '/w=='));
  t.notOk(conforms(base64OfBytesSchema(1), '/x=='));
  t.notOk(conforms(base64Schema(8), '/x=='));
  t.ok(conforms(base64UrlOfBytesSchema(2), '__8'));
  t.notOk(conforms(base64UrlOfBytesSchema(2), '__9'));
  t.notOk(conforms(base64Schema(8), 'AAAA='), 'stray padding');
  t.notOk(conforms(base64Schema(8), 'AA'), 'missing padding');
});

t.test('ISO timestamps: what Date.prototype.toISOString writes is accepted', async (t) => {
  fc.assert(
    fc.property(
      fc.date({ min: new Date(0), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
      (d) => conforms(IsoTimestampSchema, d.toISOString()),
    ),
  );
  for (const ok of ['2025-06-01T12:00:00Z', '2025-06-01T12:00:00.123456789+05:30', '2016-12-31T23:59:60Z']) {
    t.ok(conforms(IsoTimestampSchema, ok), ok);
  }
  for (const bad of [
    '2025-06-01',
    '2025-06-01 12:00:00Z',
    '2025-06-01T24:00:00Z',
    '2025-00-01T00:00:00Z',
    '',
  ]) {
    t.notOk(conforms(IsoTimestampSchema, bad), `refuses ${JSON.stringify(bad)}`);
  }
});

t.test('Unix milliseconds: every accepted value is a time a Date can write, and no later one', async (t) => {
  for (const ms of [0, 1_800_000_000_000, MAX_UNIX_MS]) {
    t.ok(conforms(UnixMsSchema, ms), `${ms} accepted`);
    t.type(new Date(ms).toISOString(), 'string', `${ms} is a date`);
  }
  for (const ms of [MAX_UNIX_MS + 1, 9e15, Number.MAX_SAFE_INTEGER, -1, 1.5]) {
    t.notOk(conforms(UnixMsSchema, ms), `${ms} refused`);
  }
});

t.test('non-finite numbers stay refused even if the TypeBox NaN policy is switched on', async (t) => {
  // Every number in the schemas has explicit bounds, and NaN fails every comparison.
  const withNaN = motorCommand();
  if (withNaN.setpoints.kind === 'joint') withNaN.setpoints.points[0]!.positionsRad[0] = Number.NaN;
  const withInfinity = { ...motorCommand(), validUntil: Number.POSITIVE_INFINITY };
  const before = TypeSystemPolicy.AllowNaN;
  try {
    TypeSystemPolicy.AllowNaN = true;
    // Compiled checkers read the policy when they are compiled, so compile afresh under the new policy.
    const fresh = TypeCompiler.Compile(MotorCommandSchema);
    t.notOk(fresh.Check(withNaN), 'NaN position refused');
    t.notOk(fresh.Check(withInfinity), 'infinite validUntil refused');
    t.ok(TypeCompiler.Compile(Type.Number()).Check(Number.NaN), 'an unbounded number would let NaN through');
  } finally {
    TypeSystemPolicy.AllowNaN = before;
  }
  t.notOk(conforms(MotorCommandSchema, withNaN), 'NaN refused under the default policy');
});
