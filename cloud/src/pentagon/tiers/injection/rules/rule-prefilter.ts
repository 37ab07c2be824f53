/**
 * Which rules can match a view at all, found in one pass over the text instead of one regular-expression
 * pass per rule. Rules with anchors (rule-anchors.ts, read from the patterns; inner-anchors.ts, written by
 * hand for the four patterns that do not start with a literal) are found by one automaton that reads the
 * text once (anchor-automaton.ts); any without run behind one alternation of their patterns (a text it
 * does not match cannot match any of them). A rule left out here cannot match the text, so the findings are exactly
 * those of running every rule (test/pentagon/injection-fast-paths.test.ts checks that on the whole corpus
 * and on random text).
 */
import { AnchorAutomaton, type AnchorStarts, type IndexedAnchor, markLive } from './anchor-automaton.js';
import { innerAnchors } from './inner-anchors.js';
import type { InjectionRule, TextView } from './rule.js';
import { ruleAnchors } from './rule-anchors.js';

export class RulePrefilter {
  readonly #anchors: AnchorAutomaton;
  /** The anchors with a code unit outside ASCII (undefined when none). */
  readonly #otherScripts: AnchorAutomaton | undefined;
  /** Rules without anchors (always candidates when `#residual` matches). */
  readonly #unanchored: number[] = [];
  readonly #residual: RegExp | undefined;
  /**
   * When the view has only a few anchors, all looked for anywhere with no `before` (the squashed view: one
   * rule, three words), they are found with `indexOf` instead of the automaton, whose one pass per text
   * costs more than a few searches for a literal; with each anchor's rule and its rule's longest anchor.
   */
  readonly #literals: { text: string; rule: number; longest: number }[] | undefined;
  /** Anchors that count only at the start of the text (a pattern's `^`), with their rules. */
  readonly #atTextStart: { text: string; rule: number }[] = [];

  constructor(rules: readonly InjectionRule[], view: TextView) {
    const unanchoredSources: string[] = [];
    const anchors: IndexedAnchor[] = [];
    rules.forEach((rule, index) => {
      if (!rule.views.includes(view)) return;
      const found = ruleAnchors(rule.pattern) ?? innerAnchors(rule.id, rule.pattern);
      if (found === undefined) {
        this.#unanchored.push(index);
        unanchoredSources.push(`(?:${rule.pattern.source})`);
        return;
      }
      for (const anchor of found) {
        if ('atTextStart' in anchor && anchor.atTextStart === true) {
          this.#atTextStart.push({ text: anchor.text, rule: index });
        } else anchors.push({ ...anchor, rule: index });
      }
    });
    // Anchors with a unit outside ASCII (other scripts, accented Latin) get an automaton of their own, run
    // only on text that has such a unit: in one automaton their ~190 symbols widened every state's row
    // of the table (2.4 → 4.7 MB for the plain view once eighteen more languages came), and most fields
    // are ASCII. Every anchor is still looked for wherever it can occur.
    const ascii = anchors.filter((a) => isAscii(a.text));
    const other = anchors.filter((a) => !isAscii(a.text));
    this.#anchors = new AnchorAutomaton(ascii);
    this.#otherScripts = other.length > 0 ? new AnchorAutomaton(other) : undefined;
    const literal = (a: IndexedAnchor) => !a.wordStart && (a.before ?? 0) === 0;
    this.#literals =
      anchors.length <= MAX_LITERALS && anchors.every(literal)
        ? anchors.map((a) => ({
            text: a.text,
            rule: a.rule,
            longest: Math.max(...anchors.filter((b) => b.rule === a.rule).map((b) => b.text.length)),
          }))
        : undefined;
    // Joining is sound: no rule has flags other than `u`, back-references or named groups.
    this.#residual = unanchoredSources.length > 0 ? new RegExp(unanchoredSources.join('|'), 'u') : undefined;
  }

  /**
   * Marks in `live` (indexed like the rules) every rule that may match `text` (a view: its blanks are
   * VIEW_BLANKS); returns how many. With `from`, also where each marked rule's matches can start at the
   * earliest (0 for rules without anchors); with `starts`, every position where a match of a rule with
   * anchors can start (anchor-automaton.ts).
   */
  mark(text: string, live: Uint8Array, from?: Int32Array, starts?: AnchorStarts): number {
    let count = 0;
    if (this.#literals !== undefined) count = markLiterals(this.#literals, text, live, from, starts);
    else {
      count = this.#anchors.mark(text, live, from, starts);
      if (this.#otherScripts !== undefined && NOT_ASCII.test(text))
        count += this.#otherScripts.mark(text, live, from, starts);
    }
    for (const { text: anchor, rule } of this.#atTextStart) {
      if (!text.startsWith(anchor)) continue;
      count += markLive(live, from, rule, 0);
      // a rule another anchor marked first may start here, earlier than that anchor said
      if (from !== undefined) from[rule] = 0;
      starts?.push(0, rule);
    }
    if (this.#residual?.test(text)) {
      for (const r of this.#unanchored) count += markLive(live, from, r, 0);
    }
    return count;
  }

  /** Whether rule `index` has anchors here (otherwise it runs behind the alternation, and `mark` lists no
   * starts for it). */
  isAnchored(index: number): boolean {
    return !this.#unanchored.includes(index);
  }

  /** How many rules of the view are looked up by anchor, and how many always run behind the alternation. */
  get sizes(): { anchored: number; unanchored: number } {
    const anchored = this.#anchors.allRules();
    for (const rule of this.#otherScripts?.allRules() ?? []) anchored.add(rule);
    for (const { rule } of this.#atTextStart) anchored.add(rule);
    return { anchored: anchored.size, unanchored: this.#unanchored.length };
  }
}

/** A code unit outside ASCII. */
const NOT_ASCII = /[^\0-\x7f]/;

function isAscii(text: string): boolean {
  return !NOT_ASCII.test(text);
}

/** Most anchors a view may have to be searched for one by one with `indexOf`. */
const MAX_LITERALS = 4;

/**
 * `AnchorAutomaton.mark` for anchors looked for anywhere with no `before`, by `indexOf`: the same rules
 * marked, the same earliest starts (from the earliest end of any of the rule's anchors), and every
 * occurrence's start listed (in another order: the list is sorted before it is read).
 */
function markLiterals(
  literals: readonly { text: string; rule: number; longest: number }[],
  text: string,
  live: Uint8Array,
  from: Int32Array | undefined,
  starts: AnchorStarts | undefined,
): number {
  let marked = 0;
  for (const { text: anchor, rule, longest } of literals) {
    let at = text.indexOf(anchor);
    if (at < 0) continue;
    const earliest = Math.max(0, at + anchor.length - longest);
    const added = markLive(live, from, rule, earliest);
    // literals are searched one after another, not in text order: a later one may start a rule earlier
    if (added === 0 && from !== undefined && earliest < from[rule]!) from[rule] = earliest;
    marked += added;
    for (; at >= 0 && starts !== undefined && !starts.full; at = text.indexOf(anchor, at + 1)) {
      starts.push(at, rule);
    }
  }
  return marked;
}
