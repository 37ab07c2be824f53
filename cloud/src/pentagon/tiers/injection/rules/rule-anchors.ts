/**
 * The words a rule cannot match without: read from the rule's own pattern, so the list can never drift
 * from it. Most rules begin with `\b(?:ignore|disregard|…)` or `\bword`: a match then starts at a word
 * start (`\b` before a letter; JS `\b` is ASCII even under the `u` flag, ECMA-262 §22.2.2.9) with one of
 * those literal prefixes. A text with no word starting with any of them cannot match the rule, and the
 * rule need not run on it (rule-prefilter.ts).
 *
 * Patterns that start with a literal without `\b` (other scripts, `<!--`, `http`) have anchors looked for
 * anywhere in the text. The reading is deliberately narrow: every top-level alternative of the pattern must
 * start with a literal or a group of literals; anything else — `(?:^|\n`, a class, an optional group —
 * leaves the rule without anchors, and it always runs. Being conservative costs speed, never a finding.
 */

/**
 * Walks the pattern syntax of `source` from `from`, skipping escapes and character classes, and calls
 * `visit` with each remaining character's index, the character and the group depth after it (`(` opens,
 * `)` closes); stops when `visit` returns true.
 */
function walkSyntax(
  source: string,
  from: number,
  visit: (i: number, c: string, depth: number) => boolean | undefined,
): void {
  let depth = 0;
  let inClass = false;
  for (let i = from; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    if (visit(i, c, depth)) return;
  }
}

/** Splits `source` at its top-level `|` (outside groups, classes and escapes). */
export function topLevelAlternatives(source: string): string[] {
  const out: string[] = [];
  let start = 0;
  walkSyntax(source, 0, (i, c, depth) => {
    if (c === '|' && depth === 0) {
      out.push(source.slice(start, i));
      start = i + 1;
    }
    return false;
  });
  out.push(source.slice(start));
  return out;
}

/** The group that opens `source` at `from` (`(?:…)`): its body and where it ends, or undefined. */
function openingGroup(source: string, from: number): { body: string; end: number } | undefined {
  if (!source.startsWith('(?:', from)) return undefined;
  let found: { body: string; end: number } | undefined;
  walkSyntax(source, from, (i, c, depth) => {
    if (c === ')' && depth === 0) found = { body: source.slice(from + 3, i), end: i + 1 };
    return found !== undefined;
  });
  return found;
}

const QUANTIFIERS_THAT_MAY_DROP = new Set(['?', '*', '{']);
/** Characters with a meaning of their own in a pattern: a literal ends before them. */
const SYNTAX = new Set(['(', ')', '[', ']', '{', '}', '?', '*', '+', '|', '.', '^', '$']);

/**
 * The literal text `source` is sure to start with, or undefined when none: characters up to the first
 * piece of pattern syntax, with punctuation escapes (`\/`, `\.`) read as the character, and without a last
 * character a quantifier may drop (`instructions?` gives `instruction`).
 */
function literalPrefix(source: string): string | undefined {
  let out = '';
  let i = 0;
  for (; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (next === '' || /[0-9A-Za-z]/.test(next)) break; // \s, \b, \d, \u…: a class or an assertion
      out += next;
      i++;
    } else if (SYNTAX.has(c)) break;
    else out += c;
  }
  if (QUANTIFIERS_THAT_MAY_DROP.has(source[i] ?? '')) out = [...out].slice(0, -1).join('');
  return out.length > 0 ? out : undefined;
}

/** An anchor: literal text every match starts with, at a word start or anywhere. */
export interface RuleAnchor {
  text: string;
  wordStart: boolean;
}

/** Anchors of one top-level alternative, or undefined. */
function alternativeAnchors(alternative: string): RuleAnchor[] | undefined {
  const boundary = alternative.startsWith('\\b');
  const from = boundary ? 2 : 0;
  const group = openingGroup(alternative, from);
  const literals: string[] = [];
  if (group === undefined) {
    const prefix = literalPrefix(alternative.slice(from));
    if (prefix === undefined) return undefined;
    literals.push(prefix);
  } else {
    // an optional or repeated opening group may match nothing: no anchor
    if (QUANTIFIERS_THAT_MAY_DROP.has(alternative[group.end] ?? '')) return undefined;
    for (const inner of topLevelAlternatives(group.body)) {
      const prefix = literalPrefix(inner);
      if (prefix === undefined) return undefined;
      literals.push(prefix);
    }
  }
  // `\b` before a letter is a word start; before anything else the anchor is looked for anywhere.
  return literals.map((text) => ({ text, wordStart: boundary && /^[a-z]/.test(text) }));
}

/**
 * Anchors one of which every match of `pattern` starts with, or undefined when the pattern has no such
 * set and must always run.
 */
export function ruleAnchors(pattern: RegExp): RuleAnchor[] | undefined {
  if (pattern.flags.replace('u', '') !== '') return undefined; // `i` would change letters, `m` anchors
  const anchors: RuleAnchor[] = [];
  for (const alternative of topLevelAlternatives(pattern.source)) {
    const found = alternativeAnchors(alternative);
    if (found === undefined) return undefined;
    anchors.push(...found);
  }
  return anchors;
}
