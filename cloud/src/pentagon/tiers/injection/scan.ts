/**
 * Scores one text field: runs every rule on the normalised views, adds the signals that only exist
 * before normalisation (invisible characters, bidi controls, mixed-script words, Unicode tags) and
 * re-scans decoded payloads once. Deterministic: same text, same findings in the same order.
 */
import { oneLine } from '../../one-line.js';
import { type PreparedText, prepareText } from './prepared-text.js';
import { INJECTION_RULES, type InjectionCategory, type TextView } from './rules/index.js';
import { AnchorStarts } from './rules/anchor-automaton.js';
import { RulePrefilter } from './rules/rule-prefilter.js';

export { type PreparedText, prepareText } from './prepared-text.js';

export interface InjectionFinding {
  ruleId: string;
  category: InjectionCategory;
  weight: number;
  field: string;
  excerpt: string;
}

export interface TenantPattern {
  id: string;
  phrase: string;
  weight: number;
}

/** Longest field scanned in full; a longer one is refused as unscannable (fail closed). */
export const MAX_SCANNED_FIELD_CHARS = 65_536;
const EXCERPT_CHARS = 120;

function excerptOf(text: string, index: number, length: number): string {
  const start = Math.max(0, index - 20);
  const end = Math.min(text.length, index + Math.max(length, 1) + 20, start + EXCERPT_CHARS);
  return oneLine(text.slice(start, end), EXCERPT_CHARS);
}

/** Per view, which rules can match at all (rules/rule-prefilter.ts): most fields are benign, and for them
 * one pass over the words replaces sixty regular-expression passes. */
const PREFILTERS: Readonly<Record<TextView, RulePrefilter>> = {
  plain: new RulePrefilter(INJECTION_RULES, 'plain'),
  skeleton: new RulePrefilter(INJECTION_RULES, 'skeleton'),
  squashed: new RulePrefilter(INJECTION_RULES, 'squashed'),
};
// Marks reused between calls (scanning is synchronous).
const LIVE: Readonly<Record<TextView, Uint8Array>> = {
  plain: new Uint8Array(INJECTION_RULES.length),
  skeleton: new Uint8Array(INJECTION_RULES.length),
  squashed: new Uint8Array(INJECTION_RULES.length),
};
/** Per view and live rule: where its matches can start at the earliest (rule-prefilter.ts). */
const FROM: Readonly<Record<TextView, Int32Array>> = {
  plain: new Int32Array(INJECTION_RULES.length),
  skeleton: new Int32Array(INJECTION_RULES.length),
  squashed: new Int32Array(INJECTION_RULES.length),
};
/** Per view: where matches of the live rules can start (rule-prefilter.ts), sorted by position. */
const STARTS: Readonly<Record<TextView, AnchorStarts>> = {
  plain: new AnchorStarts(),
  skeleton: new AnchorStarts(),
  squashed: new AnchorStarts(),
};
/** Per view and rule: 1 when the rule has anchors there, so its matches start only where STARTS says. */
const ANCHORED: Readonly<Record<TextView, Uint8Array>> = {
  plain: anchoredRules('plain'),
  skeleton: anchoredRules('skeleton'),
  squashed: anchoredRules('squashed'),
};
function anchoredRules(view: TextView): Uint8Array {
  return Uint8Array.from(INJECTION_RULES, (_, i) => (PREFILTERS[view].isAnchored(i) ? 1 : 0));
}
/**
 * Each rule's pattern with the `y` flag, tried only where STARTS says a match can start, in order: the
 * first that matches there is the rule's leftmost match, the one a search finds (it tries every position
 * in order with the same steps at each; at the others no match can start).
 */
const STICKY: readonly RegExp[] = INJECTION_RULES.map(
  (r) => new RegExp(r.pattern.source, `${r.pattern.flags}y`),
);
/**
 * Each rule's pattern with the `g` flag, so a search can start at `lastIndex`: from where the rule's
 * first anchor puts its earliest match, not from the start of the text. The match found is the same:
 * none starts earlier, and from any start the pattern tries the same alternatives in the same order.
 */
const FROM_LAST_INDEX: readonly RegExp[] = INJECTION_RULES.map(
  (r) => new RegExp(r.pattern.source, `${r.pattern.flags}g`),
);

/** Marks the rules that may match each view in `LIVE`; returns how many (rule, view) pairs are live. */
export function markLiveRules(views: { plain: string; skeleton: string; squashed: string }): number {
  LIVE.plain.fill(0);
  LIVE.skeleton.fill(0);
  LIVE.squashed.fill(0);
  STARTS.plain.clear();
  STARTS.skeleton.clear();
  STARTS.squashed.clear();
  const live =
    PREFILTERS.plain.mark(views.plain, LIVE.plain, FROM.plain, STARTS.plain) +
    // Most text has no disguise: its skeleton equals its plain view, so one pass suffices.
    (views.skeleton !== views.plain
      ? PREFILTERS.skeleton.mark(views.skeleton, LIVE.skeleton, FROM.skeleton, STARTS.skeleton)
      : 0) +
    PREFILTERS.squashed.mark(views.squashed, LIVE.squashed, FROM.squashed, STARTS.squashed);
  for (const starts of [STARTS.plain, STARTS.skeleton, STARTS.squashed]) {
    if (starts.length > 1) starts.codes.subarray(0, starts.length).sort();
  }
  return live;
}

/** The leftmost match of rule `index` in `text`, tried only at the starts listed for it. */
function matchAtStarts(index: number, text: string, starts: AnchorStarts): RegExpExecArray | null {
  const pattern = STICKY[index]!;
  const codes = starts.codes;
  let tried = -1;
  let m: RegExpExecArray | null = null;
  for (let k = 0; k < starts.length; k++) {
    const code = codes[k]!;
    if ((code & 127) !== index) continue;
    const at = code >> 7;
    // Sorted: a position listed twice for the rule comes twice in a row.
    if (at === tried) continue;
    tried = at;
    pattern.lastIndex = at;
    m = pattern.exec(text);
    if (m !== null) break;
  }
  pattern.lastIndex = 0;
  return m;
}

/** Whether rule `index` may match its `view` after the last `markLiveRules`. */
export function ruleIsLive(view: TextView, index: number): boolean {
  return LIVE[view][index] === 1;
}

function isLiveOnAny(views: readonly TextView[], index: number): boolean {
  for (let k = 0; k < views.length; k++) if (LIVE[views[k]!][index] === 1) return true;
  return false;
}

function runRules(
  views: { plain: string; skeleton: string; squashed: string },
  field: string,
  suffix: string,
  found: Map<string, InjectionFinding>,
): void {
  if (markLiveRules(views) === 0) return;
  for (let index = 0; index < INJECTION_RULES.length; index++) {
    const r = INJECTION_RULES[index]!;
    // Most rules are live on no view: skip them before building the id and looking it up.
    if (!isLiveOnAny(r.views, index)) continue;
    const id = r.id + suffix;
    if (found.has(id)) continue;
    for (const view of r.views) {
      if (LIVE[view][index] === 0) continue;
      const text = views[view];
      let m: RegExpExecArray | null;
      if (ANCHORED[view][index] === 1 && !STARTS[view].full) m = matchAtStarts(index, text, STARTS[view]);
      else {
        const pattern = FROM_LAST_INDEX[index]!;
        pattern.lastIndex = FROM[view][index]!;
        m = pattern.exec(text);
        pattern.lastIndex = 0;
      }
      if (m) {
        found.set(id, {
          ruleId: id,
          category: r.category,
          weight: r.weight,
          field,
          excerpt: excerptOf(text, m.index, m[0].length),
        });
        break;
      }
    }
  }
}

/** Combined score of findings: 1 − Π(1 − weight). */
export function combinedScore(findings: readonly { weight: number }[]): number {
  let keep = 1;
  for (const f of findings) keep *= 1 - f.weight;
  return Math.round((1 - keep) * 1e6) / 1e6;
}

interface TenantNeedle {
  p: TenantPattern;
  /** The phrase the needle was made from, to notice a pattern changed in place. */
  phrase: string;
  needle: string;
  /**
   * The phrase's words with any run of other characters, or none, between them: a tenant's code phrase
   * split by a line break, `-`, `_` or run together (`acme\noverride code`, `acme_override_code`) reads the
   * same to a model. Undefined for a one-word phrase, which `needle` already finds.
   */
  spread: RegExp | undefined;
}
const needlesByPatterns = new WeakMap<readonly TenantPattern[], TenantNeedle[]>();

/**
 * Tenant phrases in the form they are searched for, normalised once per pattern list (once per policy)
 * instead of once per field. A list or pattern changed since is noticed and normalised again.
 */
function tenantNeedles(tenant: readonly TenantPattern[]): readonly TenantNeedle[] {
  const cached = needlesByPatterns.get(tenant);
  if (
    cached !== undefined &&
    cached.length === tenant.length &&
    cached.every((n, i) => n.p === tenant[i] && n.phrase === n.p.phrase)
  ) {
    return cached;
  }
  const needles = tenant.map((p) => {
    const needle = p.phrase.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ');
    const words = needle.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
    // the words hold only letters and digits, so they need no escaping in the expression
    const spread = words.length > 1 ? new RegExp(words.join('[^\\p{L}\\p{N}]*'), 'u') : undefined;
    return { p, phrase: p.phrase, needle, spread };
  });
  needlesByPatterns.set(tenant, needles);
  return needles;
}

/** Where a tenant phrase occurs in `text` (as written, or spread: TenantNeedle.spread), if it does. */
function phraseAt(n: TenantNeedle, text: string): { index: number; length: number } | undefined {
  const at = text.indexOf(n.needle);
  if (at >= 0) return { index: at, length: n.needle.length };
  const m = n.spread?.exec(text);
  return m ? { index: m.index, length: m[0].length } : undefined;
}

/** The tenant's own phrases (policy `injection.extraPatterns`) in a field's views, one finding each. */
function findTenantPhrases(
  needles: readonly TenantNeedle[],
  views: { plain: string; skeleton: string },
  field: string,
  found: Map<string, InjectionFinding>,
): void {
  for (const n of needles) {
    const ruleId = `tenant.${n.p.id}`;
    if (found.has(ruleId)) continue;
    for (const text of [views.plain, views.skeleton]) {
      const at = phraseAt(n, text);
      if (!at) continue;
      found.set(ruleId, {
        ruleId,
        category: 'tenant-pattern',
        weight: n.p.weight,
        field,
        excerpt: excerptOf(text, at.index, at.length),
      });
      break;
    }
  }
}

export function scanText(
  raw: string,
  field: string,
  tenant: readonly TenantPattern[] = [],
  prepared?: PreparedText,
): InjectionFinding[] {
  if (raw.length > MAX_SCANNED_FIELD_CHARS) {
    return [
      {
        ruleId: 'unscannable.too-long',
        category: 'unscannable',
        weight: 1,
        field,
        excerpt: `${raw.length} characters > ${MAX_SCANNED_FIELD_CHARS}`,
      },
    ];
  }
  const found = new Map<string, InjectionFinding>();
  const { views, tagViews, payloads } = prepared ?? prepareText(raw);
  runRules(views, field, '', found);
  const needles = tenantNeedles(tenant);
  findTenantPhrases(needles, views, field, found);
  const signal = (ruleId: string, weight: number, excerpt: string) =>
    found.set(ruleId, { ruleId, category: 'encoding-smuggling', weight, field, excerpt });
  if (views.invisibleCount > 0)
    signal('encoding.invisible-characters', 0.3, `${views.invisibleCount} invisible characters`);
  if (views.bidiOverrideCount > 0) {
    // RLO/LRO reverse what is displayed; right-to-left scripts need marks (U+200E/F), never overrides.
    signal('encoding.bidi-override', 0.55, `${views.bidiOverrideCount} bidirectional override characters`);
  } else if (views.bidiCount > 0) {
    signal('encoding.bidi-controls', 0.3, `${views.bidiCount} bidirectional embedding/isolate characters`);
  }
  if (views.mixedScriptWords > 0)
    signal('encoding.mixed-script', 0.35, `${views.mixedScriptWords} words mixing Latin with Cyrillic/Greek`);
  if (views.tagText.length > 0) {
    signal('encoding.unicode-tags', 0.6, `hidden tag text: ${oneLine(views.tagText, 80)}`);
    if (tagViews !== undefined) {
      runRules(tagViews, field, '@unicode-tags', found);
      findTenantPhrases(needles, tagViews, field, found);
    }
  }
  for (const payload of payloads) {
    const before = found.size;
    runRules(payload.views, field, `@${payload.encoding}`, found);
    findTenantPhrases(needles, payload.views, field, found);
    if (found.size > before)
      signal(`encoding.encoded-instructions@${payload.encoding}`, 0.3, oneLine(payload.text, 80));
  }
  return [...found.values()];
}
