import fc from 'fast-check';
import t from 'tap';
import { cobsDecode, cobsEncode } from '../../src/serial/cobs.js';
import { FrameSplitter, encodeFrame } from '../../src/serial/serial-framing.js';

const hex = (s: string) =>
  Uint8Array.from(
    s
      .split(/\s+/)
      .filter(Boolean)
      .map((b) => Number.parseInt(b, 16)),
  );
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

// The encoding examples published with COBS (Wikipedia, "Consistent Overhead Byte Stuffing", examples 1-11,
// which follow Cheshire & Baker 1999); frames shown without their trailing 0x00 delimiter.
const VECTORS: [string, Uint8Array, Uint8Array][] = [
  ['1: one zero', hex('00'), hex('01 01')],
  ['2: two zeros', hex('00 00'), hex('01 01 01')],
  ['3: zero, byte, zero', hex('00 11 00'), hex('01 02 11 01')],
  ['4: zero inside', hex('11 22 00 33'), hex('03 11 22 02 33')],
  ['5: no zero', hex('11 22 33 44'), hex('05 11 22 33 44')],
  ['6: trailing zeros', hex('11 00 00 00'), hex('02 11 01 01 01')],
  ['7: 254 non-zero bytes', Uint8Array.from(range(1, 254)), Uint8Array.from([0xff, ...range(1, 254)])],
  [
    '8: zero then 254 non-zero',
    Uint8Array.from([0, ...range(1, 254)]),
    Uint8Array.from([0x01, 0xff, ...range(1, 254)]),
  ],
  [
    '9: 255 non-zero bytes',
    Uint8Array.from(range(1, 255)),
    Uint8Array.from([0xff, ...range(1, 254), 0x02, 0xff]),
  ],
  [
    '10: 02..FF then zero',
    Uint8Array.from([...range(2, 255), 0]),
    Uint8Array.from([0xff, ...range(2, 255), 0x01, 0x01]),
  ],
  [
    '11: 03..FF, zero, 01',
    Uint8Array.from([...range(3, 255), 0, 1]),
    Uint8Array.from([0xfe, ...range(3, 255), 0x02, 0x01]),
  ],
];

t.test('encodes and decodes the published COBS examples', async (t) => {
  for (const [name, raw, encoded] of VECTORS) {
    t.same(cobsEncode(raw), encoded, `encode ${name}`);
    t.same(cobsDecode(encoded), raw, `decode ${name}`);
  }
  t.same(cobsEncode(new Uint8Array()), hex('01'), 'the empty frame is one code byte');
  t.same(cobsDecode(hex('01')), new Uint8Array());
});

t.test('round-trips any bytes, and the encoding never contains a zero', async () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 2000 }), (data) => {
      const encoded = cobsEncode(data);
      return (
        !encoded.includes(0) &&
        Buffer.from(cobsDecode(encoded)).equals(Buffer.from(data)) &&
        encoded.length <= data.length + Math.ceil(data.length / 254) + 1
      );
    }),
    { numRuns: 2000 },
  );
});

t.test('refuses frames with a zero byte, an overrunning block, or nothing at all', async (t) => {
  t.throws(() => cobsDecode(hex('03 11 00')), { code: 'COBS_INVALID', message: /zero byte at offset 2/ });
  t.throws(() => cobsDecode(hex('05 11 22')), {
    message: /block at offset 0 wants 4 data bytes, only 2 remain/,
  });
  t.throws(() => cobsDecode(hex('00')), { message: /zero byte at offset 0/ });
  t.throws(() => cobsDecode(new Uint8Array()), { message: /empty frame/ });
});

t.test('the frame splitter reassembles frames across reads and bounds their length', async (t) => {
  const cobs = new FrameSplitter('cobs', 64);
  const a = encodeFrame('cobs', '{"a":1}');
  const b = encodeFrame('cobs', '{"b":2}');
  const wire = Uint8Array.from([...a, ...b]);
  t.same(cobs.push(wire.subarray(0, 5)), []);
  const frames = cobs.push(wire.subarray(5));
  t.same(
    frames.map((f) => (f.ok ? new TextDecoder().decode(f.payload) : f.problem)),
    ['{"a":1}', '{"b":2}'],
  );
  t.match(
    cobs.push(hex('05 11 00')),
    [{ ok: false, problem: /wants 4 data bytes/ }],
    'a corrupt frame is reported, the next one still reads',
  );
  t.match(cobs.push(encodeFrame('cobs', '{"c":3}')), [{ ok: true }]);

  const lines = new FrameSplitter('ndjson', 16);
  const long = new TextEncoder().encode(`${'x'.repeat(40)}\n{"ok":1}\r\n\n`);
  const out = lines.push(long);
  t.match(
    out,
    [{ ok: false, problem: /longer than 16 bytes/ }, { ok: true }],
    'an overlong line is dropped up to its newline; CRLF and blank lines are fine',
  );
  if (out[1]?.ok) t.equal(new TextDecoder().decode(out[1].payload), '{"ok":1}');
});
