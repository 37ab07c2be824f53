/**
 * The injection screen's shortcuts must not change what it finds: the one-pass alternation of all rules
 * of a view matches exactly when some rule matches, and the printable-ASCII views equal the full ones.
 * Checked on every corpus row (attacks and benign, tuned and held out) and on random text.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import t from 'tap';
import { collapseBlanks } from '../../src/pentagon/tiers/injection/blanks.js';
import { countMixedScriptWords } from '../../src/pentagon/tiers/injection/mixed-script.js';
import { asciiTextViews, fullTextViews } from '../../src/pentagon/tiers/injection/normalise.js';
import { INJECTION_RULES, type TextView } from '../../src/pentagon/tiers/injection/rules/index.js';
import { screenTexts } from '../../src/pentagon/tiers/injection/index.js';
import { ANY_RULE } from '../../src/pentagon/tiers/injection/scan.js';
import { disguisesUndone, HOMOGLYPHS, LEET } from '../../src/pentagon/tiers/injection/skeleton.js';
import { generateRows, readBank } from '../../src/pentagon/tiers/injection/training/index.js';

const corpusTexts = ['attacks', 'benign', 'heldout-attacks', 'heldout-benign'].flatMap((name) =>
  readFileSync(fileURLToPath(new URL(`../../corpus/injection/${name}.jsonl`, import.meta.url)), 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { text: string }).text),
);

const VIEWS: readonly TextView[] = ['plain', 'skeleton', 'squashed'];

function someRuleMatches(view: TextView, text: string): boolean {
  return INJECTION_RULES.some((r) => r.views.includes(view) && r.pattern.test(text));
}

t.test('the alternation of a view matches exactly when one of its rules does', async (t) => {
  let matched = 0;
  for (const raw of corpusTexts) {
    const views = fullTextViews(raw);
    for (const view of VIEWS) {
      const any = ANY_RULE[view].test(views[view]);
      if (any !== someRuleMatches(view, views[view])) t.fail(`${view} of ${JSON.stringify(raw)}`);
      if (any) matched++;
    }
  }
  t.ok(matched > 100, `${matched} corpus views matched some rule (the check saw both outcomes)`);
  fc.assert(
    fc.property(
      fc.oneof(fc.string({ unit: 'grapheme', maxLength: 120 }), fc.constantFrom(...corpusTexts)),
      fc.constantFrom(...VIEWS),
      (text, view) => ANY_RULE[view].test(text) === someRuleMatches(view, text),
    ),
    { numRuns: 2000, seed: 99 },
  );
});

t.test('printable-ASCII text gets the same views from the shortcut as from full normalisation', async (t) => {
  const ascii = corpusTexts.filter((s) => /^[\t\n\r\x20-\x7e]*$/.test(s));
  t.ok(ascii.length > 100, `${ascii.length} printable-ASCII corpus rows`);
  for (const raw of ascii) t.same(asciiTextViews(raw), fullTextViews(raw), raw);
  fc.assert(
    fc.property(
      fc.string({
        unit: fc.constantFrom(...' \x7e abcXYZ019345@$!?.:/-_`~{}\n\r\t'.split('')),
        maxLength: 80,
      }),
      (raw) => JSON.stringify(asciiTextViews(raw)) === JSON.stringify(fullTextViews(raw)),
    ),
    { numRuns: 3000, seed: 5 },
  );
});

t.test('tenant phrases are normalised once per list, yet a list changed in place is seen', async (t) => {
  const patterns = [{ id: 'code', phrase: 'Blue  Falcon', weight: 0.9 }];
  const settings = { threshold: 0.5, extraPatterns: patterns };
  const field = [{ path: '/trigger_prompt', value: 'the BLUE falcon flies' }];
  t.ok(screenTexts(field, settings).flagged, 'the phrase is found (case and spacing folded)');
  t.ok(screenTexts(field, settings).flagged, 'and found again from the cached needle');
  patterns[0]!.phrase = 'red heron';
  t.notOk(screenTexts(field, settings).flagged, 'a changed phrase replaces the cached needle');
  patterns.push({ id: 'falcon', phrase: 'falcon', weight: 0.6 });
  t.same(
    screenTexts(field, settings).findings.map((f) => f.ruleId),
    ['tenant.falcon'],
    'an added pattern is used',
  );
});

/** The regular expression the linear count replaces (quadratic on text without blanks). */
const MIXED_SCRIPT_WORD =
  /(?=[^\s]*\p{Script=Latin})(?=[^\s]*[\p{Script=Cyrillic}\p{Script=Greek}])[\p{L}\p{M}]{2,}/gu;

t.test('the one-pass mixed-script word count equals the regular expression it replaces', async (t) => {
  let mixed = 0;
  // The hand-written rows and the generated ones (whose disguises include look-alike letters).
  const generated = generateRows(
    readBank(fileURLToPath(new URL('../../corpus/injection/bank/', import.meta.url))),
    {
      variantsPerTemplate: 4,
    },
  ).map((r) => r.text);
  for (const raw of [...corpusTexts, ...generated]) {
    const plain = fullTextViews(raw).plain;
    const expected = plain.match(MIXED_SCRIPT_WORD)?.length ?? 0;
    if (countMixedScriptWords(plain) !== expected) t.fail(JSON.stringify(plain));
    if (expected > 0) mixed++;
  }
  t.ok(mixed >= 20, `${mixed} corpus rows have mixed-script words (the check saw both outcomes)`);
  // Latin, Cyrillic and Greek letters, combining marks, digits, blanks of several kinds, punctuation, an
  // astral letter and a lone surrogate.
  const units = 'aAoеоаαοΩ\u0301\u0483 \t\n\u00a0\u3000-.1_中\ud835\udc00\ud800'.match(
    /\ud835\udc00|[\s\S]/gu,
  )!;
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom(...units), maxLength: 40 }), (text) => {
      return countMixedScriptWords(text) === (text.match(MIXED_SCRIPT_WORD)?.length ?? 0);
    }),
    { numRuns: 20000, seed: 17 },
  );
});

t.test('mixed-script counting stays linear on text without blanks', async (t) => {
  const text = 'аb'.repeat(20_000);
  const started = performance.now();
  t.equal(countMixedScriptWords(text), 1);
  const ms = performance.now() - started;
  t.ok(ms < 200, `${ms.toFixed(1)} ms for 40,000 characters without a blank`);
});

/** The three passes collapseBlanks replaces. */
function collapseBlanksByPatterns(text: string): string {
  return text
    .replace(/[ \t\f\v\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+/g, ' ')
    .replace(/ ?(?:\r\n|\r|\n|\u2028|\u2029)[\s]*/g, '\n')
    .trim();
}

/** The two replacements and the squash disguisesUndone replaces. */
function disguisesUndoneByPatterns(plain: string): { skeleton: string; squashed: string } {
  const homoglyph = new RegExp(`[${Object.keys(HOMOGLYPHS).join('')}]`, 'gu');
  const skeleton = plain
    .replace(homoglyph, (ch) => HOMOGLYPHS[ch] ?? ch)
    .replace(/(?<=[a-z])[013457@$]|[013457@$](?=[a-z])/g, (ch) => LEET[ch] ?? ch);
  return { skeleton, squashed: skeleton.replace(/[^a-z]+/g, '') };
}

t.test('one-pass blank collapsing equals the three passes it replaces', async (t) => {
  for (const raw of corpusTexts) {
    const lower = raw.toLowerCase();
    if (collapseBlanks(lower) !== collapseBlanksByPatterns(lower)) t.fail(JSON.stringify(raw));
  }
  const units = [
    ...'ab. ',
    ' ',
    ' ',
    '\t',
    '\v',
    '\f',
    '\r',
    '\n',
    '\u00a0',
    '\u1680',
    '\u2003',
    '\u2028',
    '\u2029',
    '\u202f',
    '\u3000',
    '\ufeff',
    '\u200b',
  ];
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom(...units), maxLength: 40 }), (text) => {
      return collapseBlanks(text) === collapseBlanksByPatterns(text);
    }),
    { numRuns: 20000, seed: 23 },
  );
});

t.test('the one-pass skeleton and squashed views equal the replacements they replace', async (t) => {
  let changed = 0;
  for (const raw of corpusTexts) {
    const plain = fullTextViews(raw).plain;
    const expected = disguisesUndoneByPatterns(plain);
    t.same(disguisesUndone(plain), expected, raw.slice(0, 60));
    if (expected.skeleton !== plain) changed++;
  }
  t.ok(changed > 20, `${changed} corpus rows have a skeleton that differs from the text`);
  const units = [
    ...'ab z0134579@$-. ',
    ...Object.keys(HOMOGLYPHS).slice(0, 12),
    'д',
    'ж',
    '\ud835\udc00',
    '\ud800',
    'é',
  ];
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom(...units), maxLength: 40 }), (text) => {
      return JSON.stringify(disguisesUndone(text)) === JSON.stringify(disguisesUndoneByPatterns(text));
    }),
    { numRuns: 20000, seed: 29 },
  );
});
