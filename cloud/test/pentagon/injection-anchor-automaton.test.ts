/**
 * The rule prefilter's automaton (rules/anchor-automaton.ts) finds exactly the anchors a direct search
 * finds: an anchor looked for anywhere wherever its text occurs, one at a word start only where a word
 * starts. Checked with each view's real anchors on every corpus row's views, on generated rows and on
 * random text made of the anchors' own pieces, and with hand-made anchors whose word starts fall inside.
 */
import fc from 'fast-check';
import t from 'tap';
import { fullTextViews } from '../../src/pentagon/tiers/injection/normalise.js';
import {
  AnchorAutomaton,
  type IndexedAnchor,
  isWordChar,
} from '../../src/pentagon/tiers/injection/rules/anchor-automaton.js';
import { INJECTION_RULES, type TextView } from '../../src/pentagon/tiers/injection/rules/index.js';
import { innerAnchors } from '../../src/pentagon/tiers/injection/rules/inner-anchors.js';
import { ruleAnchors } from '../../src/pentagon/tiers/injection/rules/rule-anchors.js';
import { corpusTexts, generatedRowTexts } from './injection-texts.js';

/** The reference: every anchor searched for at every position; per rule, where its first anchor starts,
 * less the anchor's `before` and at least 0 (−1: none found). */
function foundDirectly(anchors: readonly IndexedAnchor[], text: string, rules: number): Int32Array {
  const first = new Int32Array(rules).fill(-1);
  for (const a of anchors) {
    for (let i = text.indexOf(a.text); i >= 0; i = text.indexOf(a.text, i + 1)) {
      const atWordStart = isWordChar(text.charCodeAt(i)) && (i === 0 || !isWordChar(text.charCodeAt(i - 1)));
      if (!a.wordStart || atWordStart) {
        const at = Math.max(0, i - (a.before ?? 0));
        if (first[a.rule]! < 0 || at < first[a.rule]!) first[a.rule] = at;
        break;
      }
    }
  }
  return first;
}

function foundByAutomaton(automaton: AnchorAutomaton, text: string, rules: number): Uint8Array {
  const live = new Uint8Array(rules);
  const marked = automaton.mark(text, live);
  if (marked !== live.reduce((sum, x) => sum + x, 0)) throw new Error('mark miscounted the rules it marked');
  return live;
}

/** The same rules found, and each said to start no later than its first anchor does. */
function agree(
  automaton: AnchorAutomaton,
  anchors: readonly IndexedAnchor[],
  text: string,
  rules: number,
): boolean {
  const live = new Uint8Array(rules);
  const from = new Int32Array(rules).fill(-1);
  automaton.mark(text, live, from);
  const first = foundDirectly(anchors, text, rules);
  for (let r = 0; r < rules; r++) {
    if ((live[r] === 1) !== first[r]! >= 0) return false;
    if (live[r] === 1 && (from[r]! < 0 || from[r]! > first[r]!)) return false;
  }
  return foundByAutomaton(automaton, text, rules).join('') === live.join('');
}

/** A view's anchors: those read from the patterns and those written by hand (but for the ones that
 * count only at the text's start, which the prefilter looks for itself). */
function viewAnchors(view: TextView): IndexedAnchor[] {
  return INJECTION_RULES.flatMap((rule, index) =>
    rule.views.includes(view)
      ? (ruleAnchors(rule.pattern) ?? innerAnchors(rule.id, rule.pattern) ?? [])
          .filter((a) => !('atTextStart' in a && a.atTextStart === true))
          .map((a) => ({ ...a, rule: index }))
      : [],
  );
}

t.test("each view's anchors are found exactly where a direct search finds them", async (t) => {
  const rawTexts = [...corpusTexts, ...generatedRowTexts(2)];
  for (const view of ['plain', 'skeleton', 'squashed'] as const) {
    const anchors = viewAnchors(view);
    const automaton = new AnchorAutomaton(anchors);
    let differing = 0;
    let withAnchor = 0;
    for (const raw of rawTexts) {
      const text = fullTextViews(raw)[view];
      if (!agree(automaton, anchors, text, INJECTION_RULES.length)) {
        if (differing++ === 0) t.fail(`${view}: ${JSON.stringify(text.slice(0, 120))}`);
      }
      if (foundDirectly(anchors, text, INJECTION_RULES.length).some((at) => at >= 0)) withAnchor++;
    }
    t.equal(
      differing,
      0,
      `${view}: ${anchors.length} anchors, ${rawTexts.length} texts, ${withAnchor} with one`,
    );
    // Random text from the anchors' own pieces (so anchors occur, whole, cut, at word starts or inside
    // words) and from other units, lone surrogates among them.
    const pieces = [...anchors.map((a) => a.text), ...anchors.map((a) => a.text.slice(1, 4))];
    const text = fc
      .array(
        fc.oneof(fc.constantFrom(...pieces), fc.constantFrom(' ', 'x', '_', '1', '.', '\n', 'é', '\ud800')),
        {
          maxLength: 30,
        },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (s) => agree(automaton, anchors, s, INJECTION_RULES.length)),
      { numRuns: 3000, seed: 41 },
    );
  }
});

t.test('word starts inside an anchor, and anchors that end inside others, are matched exactly', async (t) => {
  const anchors: IndexedAnchor[] = [
    { text: 'set aside', wordStart: true, rule: 0 },
    { text: '/etc/', wordStart: false, rule: 1 },
    { text: 'no', wordStart: false, rule: 2 },
    { text: 'ignore', wordStart: true, rule: 3 },
    { text: 'gnor', wordStart: false, rule: 4 },
    { text: 'a-b', wordStart: true, rule: 5 },
    { text: 'ab', wordStart: false, rule: 6 },
    { text: '忽略', wordStart: false, rule: 7 },
  ];
  const automaton = new AnchorAutomaton(anchors);
  const live = (text: string) => [...foundByAutomaton(automaton, text, 8)].flatMap((x, i) => (x ? [i] : []));
  t.same(live('please set aside the /etc/ file'), [0, 1]);
  t.same(live('unset aside'), [], 'not at a word start');
  t.same(live('xignore'), [2, 4], 'the word-start anchor is not found inside a word, those inside it are');
  t.same(live('ignore'), [2, 3, 4], 'an anchor and those ending inside it');
  t.same(live('no_a-b'), [2], 'a-b after a word character is no word start');
  t.same(live('x a-b'), [5]);
  t.same(live('xab 请忽略'), [6, 7]);
  t.same(live(''), []);
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom(...'setaside /ignorab-_1忽略'.split('')), maxLength: 40 }),
      (s) => agree(automaton, anchors, s, 8),
    ),
    { numRuns: 5000, seed: 43 },
  );
});
