/**
 * Anchors for the four rules whose patterns do not start with a literal (rule-anchors.ts reads none from
 * them): a line start, a class of banner characters, or `(?:^|[\s(<\[!-])`. Each rule's matches still
 * contain one of a few literals close to where they start, and those are written here by hand, with
 * `before`: how many code units a match may start before the anchor does. Without them the four rules
 * ran behind one alternation of their patterns, which V8 tries at every position of every view (about a
 * tenth of the whole screen's time on the bench's fields).
 *
 * Each set is written for one pattern source, kept beside it: if the rule's pattern changes, the set no
 * longer applies and the rule runs behind the alternation again (slower, never a finding lost), until the
 * set is written anew. test/pentagon/injection-fast-paths.test.ts checks that every set applies, and that
 * no rule matches where its anchors do not say it may, on the corpus and on text built from the patterns'
 * own pieces.
 *
 * Where a pattern says `\s`, an anchor holds ' ' or '\n': the views the rules read hold no other blank
 * (normalise.ts `VIEW_BLANKS`, checked on every code point by the same test file).
 */
import { VIEW_BLANKS } from '../normalise.js';
import type { RuleAnchor } from './rule-anchors.js';

/** An anchor of a rule whose matches may start up to `before` code units before it. `atTextStart`: the
 * anchor counts only at position 0 (a pattern's `^`). */
export interface InnerAnchor extends RuleAnchor {
  before: number;
  atTextStart?: boolean;
}

const ROLES = ['system', 'assistant', 'developer', 'admin', 'root'];

/** Every `head + blank + tail`, a blank being each of VIEW_BLANKS. */
function acrossBlanks(heads: readonly string[], tails: readonly string[]): string[] {
  return heads.flatMap((h) => [...VIEW_BLANKS].flatMap((b) => tails.map((t) => `${h}${b}${t}`)));
}

/**
 * `(?:^|\n)(?:#{1,4}\s?|\*\*)?ROLE` (and with `|[.!]\s` in the first group): the code unit before ROLE is
 * '\n' (from `\n`, or a blank that is '\n'), '#', '*', or a blank after '#' (`# ROLE`), or after '.' or
 * '!' (`. ROLE`, `! ROLE`) in the second rule; or ROLE starts the text. The match starts at most 7 units
 * before the anchor (`. ####` + blank before ROLE, the anchor being its last two units or more).
 */
function roleLineAnchors(afterStop: boolean): InnerAnchor[] {
  const lead = ['\n', '#', '*', '# ', ...(afterStop ? ['. ', '! '] : [])];
  return [
    ...lead.flatMap((l) => ROLES.map((r) => ({ text: `${l}${r}`, wordStart: false, before: 7 }))),
    ...ROLES.map((r) => ({ text: r, wordStart: false, before: 0, atTextStart: true })),
  ];
}

/** Every string of three banner characters: a banner match starts with three of them. */
function bannerAnchors(): InnerAnchor[] {
  const chars = [...'-=#*_'];
  return chars.flatMap((a) =>
    chars.flatMap((b) => chars.map((c) => ({ text: `${a}${b}${c}`, wordStart: false, before: 0 }))),
  );
}

/** The five alternatives of indirect.address-the-ai, in order. */
function addressTheAiAnchors(): InnerAnchor[] {
  const word = (text: string, before: number): InnerAnchor => ({ text, wordStart: true, before });
  const addressed = [
    'note',
    'message',
    'instruction',
    'instructions',
    'attention',
    'notice',
    'reminder',
    'important',
  ];
  return [
    // \b(?:note|…|instructions?|…)\s(?:to|for)\s — the match starts with the anchor.
    ...acrossBlanks(addressed, ['to', 'for']).map((t) => word(t, 0)),
    // \bif you are an?\s
    word('if you are a', 0),
    // \b(?:ai|llm|assistant|agent|model)s?\s(?:reading|processing|summari[sz]ing|parsing) this\b — the
    // verb starts a word (a blank is before it) at most `assistants` + a blank after the match start.
    ...['reading', 'processing', 'summarising', 'summarizing', 'parsing'].map((v) => word(`${v} this`, 11)),
    // \bdear (?:ai|assistant|llm|chatbot|agent)\b
    ...['ai', 'assistant', 'llm', 'chatbot', 'agent'].map((a) => word(`dear ${a}`, 0)),
    // (?:^|[\s(<\[!-])(?:ai|llm)(?:\s(?:agent|assistant|model|system))?\s?: — every unit the first group
    // can match is no word unit, so ai/llm starts a word; then ':', a blank and ':', or a blank and a word.
    ...['ai', 'llm'].flatMap((a) => [
      word(`${a}:`, 1),
      ...acrossBlanks([a], [':', 'agent', 'assistant', 'model', 'system']).map((t) => word(t, 1)),
    ]),
  ];
}

/** By rule id: the pattern source the anchors were written for, and the anchors. */
export const INNER_ANCHORS: Readonly<Record<string, { source: string; anchors: readonly InnerAnchor[] }>> = {
  'delimiter.role-line': {
    source: String.raw`(?:^|\n)(?:#{1,4}\s?|\*\*)?(?:system|assistant|developer|admin|root)(?:\s(?:message|prompt|override|note))?\s?(?:\*\*)?\s?:(?:\*\*)?`,
    anchors: roleLineAnchors(false),
  },
  'delimiter.role-line-directive': {
    source: String.raw`(?:^|\n|[.!]\s)(?:#{1,4}\s?|\*\*)?(?:system|assistant|developer|admin|root)(?:\s(?:message|prompt|override|note))?\s?(?:\*\*)?\s?:(?:\*\*)?[^\n]{0,120}?\b(?:now|must|disabled|enabled|allowed|approve|approved|unlimited|grant|proceed|verified|ignore|comply)\b`,
    anchors: roleLineAnchors(true),
  },
  'delimiter.banner': {
    source: String.raw`(?<![-=#*_])[-=#*_]{3,}\s?(?:end|begin|new|system|instructions?)\b`,
    anchors: bannerAnchors(),
  },
  'indirect.address-the-ai': {
    source: String.raw`\b(?:note|message|instructions?|attention|notice|reminder|important)\s(?:to|for)\s(?:the\s|any\s|all\s)?(?:ai|llm|assistant|language model|chatbot|agent|gpt|model|bot)s?\b|\bif you are an?\s(?:ai|llm|language model|assistant|chatbot|gpt|agent|bot)\b|\b(?:ai|llm|assistant|agent|model)s?\s(?:reading|processing|summari[sz]ing|parsing) this\b|\bdear (?:ai|assistant|llm|chatbot|agent)\b|(?:^|[\s(<\[!-])(?:ai|llm)(?:\s(?:agent|assistant|model|system))?\s?:`,
    anchors: addressTheAiAnchors(),
  },
};

/** The hand-written anchors of rule `id` when they were written for `pattern`; otherwise undefined. */
export function innerAnchors(id: string, pattern: RegExp): readonly InnerAnchor[] | undefined {
  const entry = INNER_ANCHORS[id];
  return entry !== undefined && entry.source === pattern.source && pattern.flags === 'u'
    ? entry.anchors
    : undefined;
}
