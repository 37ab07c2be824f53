/**
 * Finds which anchors (rule-anchors.ts) occur in a text, in one pass with one table step per code unit: an
 * Aho–Corasick automaton (Aho & Corasick 1975) turned into a full transition table. It replaces walking a
 * trie from every position, which on the plain view started a walk at nearly every letter (the anchors
 * of the rules for other languages start with common letters and are looked for anywhere).
 *
 * Anchors that must start at a word start are handled with a marker symbol: the text is read as if a
 * marker stood before every word start (an ASCII word character after a non-word character or at the
 * start, as JS `\b` sees it), and such an anchor is the marker followed by its text. So that anchors
 * still match across the markers the text now contains, every anchor's own word starts after its first
 * character carry the marker too; whether its first character is a word start depends on the text before
 * it, which an anchor looked for anywhere does not care about. The anchors found are therefore exactly
 * those the trie walks found: an anchor anywhere wherever it occurs, one at a word start only there.
 */

import { CodeUnits } from '../code-units.js';

/** An anchor and the rule (by index) it stands for; `before`: how many code units a match of the rule
 * may start before the anchor (0 when absent: matches start with their anchor). */
export interface IndexedAnchor {
  text: string;
  wordStart: boolean;
  rule: number;
  before?: number;
}

/** ASCII word characters, as `\b` sees them. */
export function isWordChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
}

/**
 * Where matches of the live rules may start: every occurrence of an anchor gives its start (and the
 * `before` positions ahead of it) as `position × 128 + rule`, in the order the anchors end. Filled by
 * `mark` up to a bound; past it `full` is set and the list no longer holds every start (the caller then
 * searches from each rule's earliest start instead). One list is reused call after call.
 */
export class AnchorStarts {
  codes = new Int32Array(256);
  length = 0;
  full = false;
  constructor(readonly bound = 4096) {}

  clear(): void {
    this.length = 0;
    this.full = false;
  }

  push(position: number, rule: number): void {
    if (this.length >= this.bound) {
      this.full = true;
      return;
    }
    if (this.length === this.codes.length) {
      const grown = new Int32Array(this.codes.length * 2);
      grown.set(this.codes);
      this.codes = grown;
    }
    this.codes[this.length++] = position * 128 + rule;
  }
}

/** Symbol 0: a code unit in no anchor. Symbol 1: the word-start marker. Anchor units are 2 onwards. */
const OTHER = 0;
const WORD_START = 1;

export class AnchorAutomaton {
  /** Per code unit: its symbol times two, plus one for a word character (what a step reads). */
  readonly #codeOf = new Uint16Array(65536);
  readonly #symbols: number;
  /**
   * The transition table, row by row (a state's row starts at state × symbols; 0 is the start): the entry
   * for `symbol` is the next state's row start, times two, plus one when anchors end in that state. Rows
   * are stored premultiplied so that a step is one read, not a multiplication and a read, and the flag
   * saves looking at the (mostly empty) rule lists. The second half is the same table for a unit that
   * starts a word: the marker and the unit in one step. Picking the half by arithmetic rather than taking
   * a marker step behind a branch halved the time per unit (the branch, taken at every word start, was
   * mispredicted about as often).
   */
  readonly #step: Int32Array;
  /** Per state: the rules of every anchor that ends there (its own and those it ends with). */
  readonly #rulesAt: readonly (readonly number[])[];
  /** Per state: (rule, length, before) of every anchor that ends there, flat. */
  readonly #endingAt: readonly (readonly number[])[];
  /** Per rule: the most code units from a match's start to the end of its anchor (its longest anchor and
   * that anchor's `before`; 0 for rules without one here). */
  readonly #longest: Int32Array;

  constructor(anchors: readonly IndexedAnchor[]) {
    if (anchors.some((a) => a.rule >= 128))
      throw new RangeError('anchor automaton: rules are numbered below 128');
    // The symbol of every UTF-16 code unit, given as the anchors are read.
    const symbolOf = new Uint16Array(65536);
    let symbols = 2;
    const paths = anchors.map((a) => {
      const path: number[] = a.wordStart ? [WORD_START] : [];
      for (let j = 0; j < a.text.length; j++) {
        const unit = a.text.charCodeAt(j);
        if (j > 0 && isWordChar(unit) && !isWordChar(a.text.charCodeAt(j - 1))) path.push(WORD_START);
        if (symbolOf[unit] === OTHER) symbolOf[unit] = symbols++;
        path.push(symbolOf[unit]!);
      }
      return path;
    });
    this.#symbols = symbols;
    this.#longest = new Int32Array(anchors.reduce((most, a) => Math.max(most, a.rule + 1), 0));
    for (const a of anchors) {
      this.#longest[a.rule] = Math.max(this.#longest[a.rule]!, a.text.length + (a.before ?? 0));
    }
    // The trie of the anchors: children by symbol (-1: none), and the rules ending at each node.
    const children: Int32Array[] = [new Int32Array(symbols).fill(-1)];
    const rules: number[][] = [[]];
    const ending: number[][] = [[]];
    paths.forEach((path, k) => {
      let node = 0;
      for (const symbol of path) {
        if (children[node]![symbol] === -1) {
          children[node]![symbol] = children.length;
          children.push(new Int32Array(symbols).fill(-1));
          rules.push([]);
          ending.push([]);
        }
        node = children[node]![symbol]!;
      }
      const rule = anchors[k]!.rule;
      if (!rules[node]!.includes(rule)) rules[node]!.push(rule);
      addEnding(ending[node]!, rule, anchors[k]!.text.length, anchors[k]!.before ?? 0);
    });
    // Breadth first: each node's longest proper suffix that is also a trie node (`fail`), its missing
    // transitions taken from there, and its rules joined with those of the suffix.
    const states = children.length;
    const next = new Int32Array(states * symbols);
    const fail = new Int32Array(states);
    const queue: number[] = [];
    for (let s = 0; s < symbols; s++) {
      const child = children[0]![s]!;
      next[s] = child === -1 ? 0 : child;
      if (child !== -1) queue.push(child);
    }
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]!;
      const suffixRules = rules[fail[node]!]!;
      for (const r of suffixRules) if (!rules[node]!.includes(r)) rules[node]!.push(r);
      const suffixEnding = ending[fail[node]!]!;
      for (let e = 0; e < suffixEnding.length; e += 3) {
        addEnding(ending[node]!, suffixEnding[e]!, suffixEnding[e + 1]!, suffixEnding[e + 2]!);
      }
      for (let s = 0; s < symbols; s++) {
        const child = children[node]![s]!;
        const viaSuffix = next[fail[node]! * symbols + s]!;
        if (child === -1) next[node * symbols + s] = viaSuffix;
        else {
          next[node * symbols + s] = child;
          fail[child] = viaSuffix;
          queue.push(child);
        }
      }
    }
    const size = states * symbols;
    if (size * 4 > 0x7fffffff) throw new RangeError('anchor automaton: too many states');
    const step = new Int32Array(2 * size);
    for (let k = 0; k < size; k++) step[k] = next[k]! * symbols * 2 + (rules[next[k]!]!.length > 0 ? 1 : 0);
    // No anchor ends with the marker, so the state after it has no rules and may be stepped through.
    for (let row = 0; row < size; row += symbols) {
      const afterMarker = next[row + WORD_START]! * symbols;
      step.copyWithin(size + row, afterMarker, afterMarker + symbols);
    }
    this.#step = step;
    for (let unit = 0; unit < 65536; unit++) {
      this.#codeOf[unit] = symbolOf[unit]! * 2 + (isWordChar(unit) ? 1 : 0);
    }
    this.#rulesAt = rules;
    this.#endingAt = ending;
  }

  /**
   * Marks in `live` (indexed like the rules) the rules of every anchor that occurs in `text`; returns how
   * many were not marked before. For each rule it marks, `from[rule]` is set to where its matches can
   * start at the earliest: every match starts with one of its anchors (or at most its `before` units
   * ahead of one), and none ends before the first one found, so no match starts more than the rule's
   * longest anchor (and its `before`) ahead of that one's end.
   */
  mark(text: string, live: Uint8Array, from?: Int32Array, starts?: AnchorStarts): number {
    const count = readAnchorEnds(text, this.#codeOf, this.#step, ANCHOR_ENDS);
    const symbols = this.#symbols;
    let marked = 0;
    for (let k = 0; k < count; k++) {
      const end = ANCHOR_ENDS.ends[k]!;
      const state = ANCHOR_ENDS.rows[k]! / symbols;
      marked += this.#markRules(this.#rulesAt[state]!, live, from, end);
      if (starts !== undefined && !starts.full) this.#addStarts(this.#endingAt[state]!, end, starts);
    }
    return marked;
  }

  /** Marks `rules`, of anchors that end before `end`; returns how many were new. */
  #markRules(rules: readonly number[], live: Uint8Array, from: Int32Array | undefined, end: number): number {
    let marked = 0;
    for (let k = 0; k < rules.length; k++) {
      const r = rules[k]!;
      marked += markLive(live, from, r, Math.max(0, end - this.#longest[r]!));
    }
    return marked;
  }

  /** The starts of the anchors in `ending` (of one state) that end before `end`, and the positions up
   * to their `before` ahead of them. */
  #addStarts(ending: readonly number[], end: number, starts: AnchorStarts): void {
    for (let e = 0; e < ending.length; e += 3) {
      const start = end - ending[e + 1]!;
      for (let p = Math.max(0, start - ending[e + 2]!); p <= start; p++) starts.push(p, ending[e]!);
    }
  }

  /** Every rule with an anchor here. */
  allRules(): Set<number> {
    return new Set(this.#rulesAt.flat());
  }
}

/** Where anchors end in the text last read (one past their last unit), and the row of the state there. */
class AnchorEnds {
  ends = new Int32Array(256);
  rows = new Int32Array(256);

  /** Makes room for `count` ends. */
  reserve(count: number): void {
    if (this.ends.length >= count) return;
    this.ends = new Int32Array(count);
    this.rows = new Int32Array(count);
  }
}
const ANCHOR_ENDS = new AnchorEnds();
const TEXT_UNITS = new CodeUnits();

/**
 * Steps the automaton (`codeOf`, `step`: see AnchorAutomaton) through `text` and lists in `out` where
 * anchors end; returns how many. The loop is a function of its own, of typed arrays and no callbacks:
 * inside the method, next to the marking, V8 compiled it well in some processes and at half the speed
 * in others (the rules stage took 49 or 64 µs per KiB from one run to the next); alone it runs at the
 * faster speed in every run.
 */
function readAnchorEnds(text: string, codeOf: Uint16Array, step: Int32Array, out: AnchorEnds): number {
  out.reserve(text.length);
  // The views reach here as every kind of V8 string (flat or concatenated, one or two bytes per unit), so
  // `charCodeAt` in this loop took a generic path; one native copy into a typed array reads faster.
  const units = TEXT_UNITS.of(text);
  const n = text.length;
  const ends = out.ends;
  const rows = out.rows;
  const half = step.length / 2;
  let count = 0;
  let row = 0;
  let previousIsWord = 0;
  for (let i = 0; i < n; i++) {
    const code = codeOf[units[i]!]!;
    const word = code & 1;
    // A word character after a non-word one starts a word: read the marker too (the second half).
    const entry = step[(word & (previousIsWord ^ 1)) * half + row + (code >> 1)]!;
    previousIsWord = word;
    row = entry >> 1;
    if ((entry & 1) !== 0) {
      ends[count] = i + 1;
      rows[count++] = row;
    }
  }
  return count;
}

/**
 * Marks rule `rule` live (indexed like the rules) with the earliest start of its matches; returns 1 when it
 * was new, else 0. Within one pass the first anchor found for a rule gives its earliest start (later ones
 * end later); a rule already marked by another pass over the same text (rule-prefilter.ts reads the text
 * with a second automaton for anchors outside ASCII) keeps the lower of the two bounds, both being sound.
 */
export function markLive(
  live: Uint8Array,
  from: Int32Array | undefined,
  rule: number,
  earliest: number,
): number {
  if (live[rule] !== 0) {
    if (from !== undefined && earliest < from[rule]!) from[rule] = earliest;
    return 0;
  }
  live[rule] = 1;
  if (from !== undefined) from[rule] = earliest;
  return 1;
}

/** Adds (rule, length, before) to a state's flat list unless it is there already. */
function addEnding(list: number[], rule: number, length: number, before: number): void {
  for (let e = 0; e < list.length; e += 3) {
    if (list[e] === rule && list[e + 1] === length && list[e + 2] === before) return;
  }
  list.push(rule, length, before);
}
