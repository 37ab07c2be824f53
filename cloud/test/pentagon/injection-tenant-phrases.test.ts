/**
 * A tenant's own phrases (policy `injection.extraPatterns`) are found however the words are joined — a
 * line break, a dash, an underscore, nothing — and inside the payloads the screen decodes, not only where
 * they are written with spaces.
 */
import t from 'tap';
import { screenTexts } from '../../src/pentagon/tiers/injection/index.js';

const settings = {
  threshold: 0.5,
  extraPatterns: [{ id: 'override', phrase: 'acme override code', weight: 0.9 }],
  classifier: { enabled: false },
};
/** The value as an assertion's name, line separators escaped (TAP reads U+2028 as the end of a line). */
const named = (value: string) =>
  JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
const ruleIds = (value: string) =>
  screenTexts([{ path: '/trigger_prompt', value }], settings).findings.map((f) => f.ruleId);

t.test('the phrase is found with any separator between its words', async (t) => {
  for (const value of [
    'use the acme override code now',
    'ACME OVERRIDE CODE 7',
    'acme\toverride   code',
    'use the acme override\ncode now',
    'acme\r\noverride code',
    'acme override\u2028code',
    'acme-override-code',
    'acme_override_code',
    'acmeoverridecode',
    'Acme.Override/Code',
    'ａｃｍｅ ｏｖｅｒｒｉｄｅ ｃｏｄｅ', // full-width (NFKC)
    Buffer.from('please apply the acme override code').toString('base64'),
  ]) {
    t.ok(ruleIds(value).includes('tenant.override'), named(value));
  }
});

t.test('the words alone, out of order or apart, are not the phrase', async (t) => {
  for (const value of [
    'acme code override',
    'the acme team wrote an override for the code',
    'acme override',
    'override code',
  ]) {
    t.notOk(ruleIds(value).includes('tenant.override'), named(value));
  }
});

t.test('the finding quotes the phrase as it was found', async (t) => {
  const [finding] = screenTexts([{ path: '/a', value: 'x acme_override_code y' }], settings).findings.filter(
    (f) => f.ruleId === 'tenant.override',
  );
  t.match(finding?.excerpt, /acme_override_code/);
});
