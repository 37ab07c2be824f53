/**
 * Hostile JSON for the fuzz suites: input JSON.parse accepts but a server must refuse before anything is
 * written — lone surrogates in values and member names, numbers that overflow a double, nesting far past
 * any limit, duplicate member names, `__proto__` members, U+0000, and bytes that are not UTF-8 — each placed at a
 * random member of an otherwise valid body, or inside one of its nested objects.
 */
import fc from 'fast-check';

const PLACEHOLDER = 'hostile-fragment-placeholder';
const QUOTED_PLACEHOLDER = JSON.stringify(PLACEHOLDER);

export const HOSTILE_FRAGMENTS = [
  '"\\ud800"',
  '"tail\\udfff"',
  '{"\\udc00":1}',
  '1e309',
  '-1e309',
  `{"x":${'['.repeat(3000)}1${']'.repeat(3000)}}`,
  '{"k":1,"k":null}',
  '{"\\u005f_proto__":{"admin":true}}',
  '"a\\u0000b"',
  '{"\\u0000":1}',
] as const;

/** `valid` as JSON text with the placeholder at `key` (or inside it, when it is an object and `nested`). */
function withPlaceholder(valid: Record<string, unknown>, key: string, nested: boolean): string {
  const inner = valid[key];
  const value =
    nested && inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? { ...(inner as Record<string, unknown>), hostile: PLACEHOLDER }
      : PLACEHOLDER;
  return JSON.stringify({ ...valid, [key]: value });
}

/** A valid body made hostile at one place; about one in nine carries a byte that is not UTF-8. */
export function hostileBody(valid: Record<string, unknown>): fc.Arbitrary<string | Buffer> {
  const keys = Object.keys(valid);
  return fc
    .record({
      key: fc.constantFrom(...keys),
      nested: fc.boolean(),
      fragment: fc.constantFrom(...HOSTILE_FRAGMENTS, 'BAD_UTF8'),
    })
    .map(({ key, nested, fragment }) => {
      const [before, after] = withPlaceholder(valid, key, nested).split(QUOTED_PLACEHOLDER) as [
        string,
        string,
      ];
      if (fragment !== 'BAD_UTF8') return `${before}${fragment}${after}`;
      return Buffer.concat([Buffer.from(`${before}"`), Buffer.from([0xc3, 0x28]), Buffer.from(`"${after}`)]);
    });
}
