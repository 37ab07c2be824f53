/**
 * The page's Buffer stand-in (cloud/console/shims/buffer.ts) against Node's Buffer: the same text for hex,
 * base64 and base64url (RFC 4648 §4, §5) and UTF-8 on any bytes and any slice of a larger buffer, and the same
 * bytes back — the shared packages' strict decoders rely on exact round trips.
 */
import fc from 'fast-check';
import t from 'tap';
import { BrowserBuffer } from '../../console/shims/buffer.js';

const ENCODINGS = ['hex', 'base64', 'base64url'] as const;

t.test('encodes like Node on any bytes and slices', async (t) => {
  let checked = 0;
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 70 }), fc.nat(8), (bytes, cut) => {
      const start = Math.min(cut, bytes.length);
      const view = bytes.subarray(start);
      for (const encoding of ENCODINGS) {
        const ours = BrowserBuffer.from(view.buffer, view.byteOffset, view.byteLength).toString(encoding);
        const node = Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString(encoding);
        if (ours !== node) return false;
        if (!BrowserBuffer.from(node, encoding).equals(view)) return false;
      }
      checked++;
      return true;
    }),
    { numRuns: 500 },
  );
  t.equal(checked, 500);
});

t.test('UTF-8, concat, byteLength and the published RFC 4648 §10 vectors', async (t) => {
  t.equal(BrowserBuffer.from('N·m ✓').toString('utf8'), 'N·m ✓');
  t.equal(BrowserBuffer.byteLength('N·m'), Buffer.byteLength('N·m'));
  t.same([...BrowserBuffer.concat([new Uint8Array([1]), new Uint8Array([2, 3])])], [1, 2, 3]);
  const vectors: [string, string][] = [
    ['', ''],
    ['f', 'Zg=='],
    ['fo', 'Zm8='],
    ['foo', 'Zm9v'],
    ['foob', 'Zm9vYg=='],
    ['fooba', 'Zm9vYmE='],
    ['foobar', 'Zm9vYmFy'],
  ];
  for (const [text, base64] of vectors) t.equal(BrowserBuffer.from(text).toString('base64'), base64);
});
