/**
 * Which rules can match a view at all, found in one pass over the text instead of one regular-expression
 * pass per rule. Rules with anchors (rule-anchors.ts) are looked up in two tries, one walked from every
 * word start and one from every position; the few without run behind one alternation of their patterns (a
 * text it does not match cannot match any of them). A rule left out here cannot match the text, so the findings are exactly those of running every
 * rule (test/pentagon/injection-fast-paths.test.ts checks that on the whole corpus and on random text).
 */
import type { InjectionRule, TextView } from './rule.js';
import { ruleAnchors } from './rule-anchors.js';

/**
 * A trie of anchors over UTF-16 code units, flat for speed (it is walked from every position of every
 * field): node n's child for an ASCII unit c is `ascii[n * 128 + c]` (0: none; the root is node 0 and is
 * never a child), other units go through a map keyed by `n * 65536 + unit`.
 */
class AnchorTrie {
  ascii = new Int32Array(128 * 16);
  readonly other = new Map<number, number>();
  /** The root's children for every UTF-16 unit (the root is looked up at every position; most text units
   * outside ASCII start no anchor, and a table answers that faster than the map). */
  readonly #root = new Uint16Array(65536);
  /** Per node: the rules one of whose anchors ends there (empty for most nodes). */
  readonly rules: number[][] = [[]];

  child(n: number, unit: number): number {
    return unit < 128 ? this.ascii[n * 128 + unit]! : (this.other.get(n * 65536 + unit) ?? 0);
  }

  insert(text: string, rule: number): void {
    let n = 0;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      let next = this.child(n, unit);
      if (next === 0) {
        next = this.rules.length;
        this.rules.push([]);
        if (n === 0) this.#root[unit] = next;
        if (unit < 128) {
          if (this.ascii.length < (n + 1) * 128 || this.ascii.length < (next + 1) * 128) {
            const grown = new Int32Array(Math.max(this.ascii.length * 2, (next + 1) * 128));
            grown.set(this.ascii);
            this.ascii = grown;
          }
          this.ascii[n * 128 + unit] = next;
        } else this.other.set(n * 65536 + unit, next);
      }
      n = next;
    }
    if (this.rules.length > 65535) throw new RangeError('rule prefilter: more than 65,535 anchor nodes');
    if (!this.rules[n]!.includes(rule)) this.rules[n]!.push(rule);
  }

  /** The root's child for `unit` (0: no anchor starts with it), the check made at every position. */
  first(unit: number): number {
    return this.#root[unit]!;
  }

  /**
   * Walks `text` on from node `n` (the root's child for the unit at `from`), marking the rules of every
   * anchor found; returns how many were new.
   */
  walk(text: string, from: number, first: number, live: Uint8Array): number {
    let marked = 0;
    let n = first;
    for (let j = from; j < text.length; j++) {
      if (j > from) {
        const unit = text.charCodeAt(j);
        n = unit < 128 ? this.ascii[n * 128 + unit]! : (this.other.get(n * 65536 + unit) ?? 0);
        if (n === 0) return marked;
      }
      const rules = this.rules[n]!;
      for (let k = 0; k < rules.length; k++) {
        const r = rules[k]!;
        if (live[r] === 0) {
          live[r] = 1;
          marked++;
        }
      }
    }
    return marked;
  }

  /** Every rule with an anchor here. */
  allRules(): Set<number> {
    return new Set(this.rules.flat());
  }
}

/** ASCII word characters, as `\b` sees them. */
function isWordChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
}

export class RulePrefilter {
  readonly #wordStart = new AnchorTrie();
  readonly #anywhere = new AnchorTrie();
  readonly #hasAnywhere: boolean;
  /** Rules without anchors (always candidates when `#residual` matches). */
  readonly #unanchored: number[] = [];
  readonly #residual: RegExp | undefined;

  constructor(rules: readonly InjectionRule[], view: TextView) {
    const unanchoredSources: string[] = [];
    let hasAnywhere = false;
    rules.forEach((rule, index) => {
      if (!rule.views.includes(view)) return;
      const anchors = ruleAnchors(rule.pattern);
      if (anchors === undefined) {
        this.#unanchored.push(index);
        unanchoredSources.push(`(?:${rule.pattern.source})`);
        return;
      }
      for (const anchor of anchors) {
        (anchor.wordStart ? this.#wordStart : this.#anywhere).insert(anchor.text, index);
        hasAnywhere ||= !anchor.wordStart;
      }
    });
    this.#hasAnywhere = hasAnywhere;
    // Joining is sound: no rule has flags other than `u`, back-references or named groups.
    this.#residual = unanchoredSources.length > 0 ? new RegExp(unanchoredSources.join('|'), 'u') : undefined;
  }

  /** Marks in `live` (indexed like the rules) every rule that may match `text`; returns how many. */
  mark(text: string, live: Uint8Array): number {
    let count = 0;
    const wordStart = this.#wordStart;
    const anywhere = this.#hasAnywhere ? this.#anywhere : undefined;
    let previousIsWord = false;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      const word = isWordChar(unit);
      if (word && !previousIsWord) {
        const first = wordStart.first(unit);
        if (first !== 0) count += wordStart.walk(text, i, first, live);
      }
      if (anywhere !== undefined) {
        const first = anywhere.first(unit);
        if (first !== 0) count += anywhere.walk(text, i, first, live);
      }
      previousIsWord = word;
    }
    if (this.#residual?.test(text)) {
      for (const r of this.#unanchored) {
        if (live[r] === 0) {
          live[r] = 1;
          count++;
        }
      }
    }
    return count;
  }

  /** How many rules of the view are looked up by anchor, and how many always run behind the alternation. */
  get sizes(): { anchored: number; unanchored: number } {
    const anchored = new Set([...this.#wordStart.allRules(), ...this.#anywhere.allRules()]);
    return { anchored: anchored.size, unanchored: this.#unanchored.length };
  }
}
