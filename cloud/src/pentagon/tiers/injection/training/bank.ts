/**
 * Reads the paraphrase banks in `cloud/corpus/injection/bank/` (format in that folder's README.md):
 * sections of slots, attack and benign templates and carriers, one pattern per line. `{a|b}` picks one
 * alternative, `{NAME}` an entry of slot NAME (same language first, then common.txt), `\{` `\}` are
 * literal braces and `\n` a line break.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Label = 'attack' | 'benign';

export interface Template {
  /** `<lang>/<label>/<family>/<section>#<line>`: unique, stable across runs. */
  id: string;
  lang: string;
  label: Label;
  /** The attack or benign family, e.g. `override`, `revision`. */
  family: string;
  pattern: string;
  /** Position of this pattern among the patterns of its (lang, label, family). */
  indexInFamily: number;
}

export interface Bank {
  languages: string[];
  templates: Template[];
  /** slots[lang][NAME]: alternatives; lang `common` holds the language-neutral ones. */
  slots: Record<string, Record<string, string[]>>;
  /** carriers[name]: patterns with {PAYLOAD} and {FILLER}. */
  carriers: Record<string, string[]>;
}

const SECTION = /^== (slot|attack|benign|carrier) (\S+)$/;

export function readBank(dir: string): Bank {
  const bank: Bank = { languages: [], templates: [], slots: {}, carriers: {} };
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort();
  for (const file of files) {
    const lang = file.replace(/\.txt$/, '');
    if (lang !== 'common') bank.languages.push(lang);
    const slots: Record<string, string[]> = {};
    bank.slots[lang] = slots;
    const perFamily = new Map<string, number>();
    let section: { kind: string; name: string } | undefined;
    readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (line.trim() === '' || line.startsWith('#')) return;
        const header = SECTION.exec(line);
        if (header) {
          section = { kind: header[1]!, name: header[2]! };
          return;
        }
        if (line.startsWith('=='))
          throw new SyntaxError(`${file}:${i + 1}: unknown section header "${line}"`);
        if (section === undefined) throw new SyntaxError(`${file}:${i + 1}: pattern before any section`);
        if (section.kind === 'slot') slots[section.name] = [...(slots[section.name] ?? []), line];
        else if (section.kind === 'carrier') {
          bank.carriers[section.name] = [...(bank.carriers[section.name] ?? []), line];
        } else {
          const label = section.kind as Label;
          const family = section.name.split('/')[0]!;
          const key = `${label}/${family}`;
          const indexInFamily = perFamily.get(key) ?? 0;
          perFamily.set(key, indexInFamily + 1);
          bank.templates.push({
            id: `${lang}/${label}/${section.name}#${indexInFamily}`,
            lang,
            label,
            family,
            pattern: line,
            indexInFamily,
          });
        }
      });
  }
  return bank;
}

/** A deterministic generator (mulberry32): the corpus is the same on every machine and run. */
export { seededRandom } from '@pentagate/protocol';

export function stringSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)]!;
}

/** Expands one pattern: alternatives and slots, recursively (slots may contain patterns). */
export function expand(pattern: string, bank: Bank, lang: string, random: () => number, depth = 0): string {
  if (depth > 8) throw new RangeError(`slot nesting deeper than 8 in "${pattern}"`);
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      const next = pattern[i + 1]!;
      out += next === 'n' ? '\n' : next;
      i += 2;
      continue;
    }
    if (c !== '{') {
      out += c;
      i++;
      continue;
    }
    const close = matchingBrace(pattern, i);
    const body = pattern.slice(i + 1, close);
    i = close + 1;
    if (/^[A-Z]+$/.test(body)) {
      const alternatives = bank.slots[lang]?.[body] ?? bank.slots.common?.[body];
      if (alternatives === undefined) throw new RangeError(`unknown slot {${body}} for ${lang}`);
      out += expand(pick(alternatives, random), bank, lang, random, depth + 1);
    } else {
      out += expand(pick(splitAlternatives(body), random), bank, lang, random, depth + 1);
    }
  }
  return out;
}

function matchingBrace(pattern: string, open: number): number {
  let depth = 0;
  for (let i = open; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  throw new SyntaxError(`unclosed { in "${pattern}"`);
}

/** Splits `a|b|{c|d}` at top-level bars only. */
function splitAlternatives(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === '|' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}
