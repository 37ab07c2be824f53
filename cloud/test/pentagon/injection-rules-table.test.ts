/**
 * The built-in injection rules, pinned: every rule's id, category, weight, pattern source and flags,
 * views and description, in order (order decides the order of findings). The rules live in one file per
 * attack family (tiers/injection/rules/); moving a rule between files, or splitting one, must leave this
 * table unchanged. Together with golden-verdicts.test.ts (the screen result of every corpus row) this
 * shows that a refactor of the rules changed nothing they do.
 *
 * If a rule is changed on purpose, regenerate with PENTAGON_GOLDEN_WRITE=1 and review the diff.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { INJECTION_RULES } from '../../src/pentagon/tiers/injection/index.js';

const tablePath = fileURLToPath(new URL('./injection-rules-table.json', import.meta.url));
const writing = process.env.PENTAGON_GOLDEN_WRITE === '1';

const table = INJECTION_RULES.map((r) => ({
  id: r.id,
  category: r.category,
  weight: r.weight,
  source: r.pattern.source,
  flags: r.pattern.flags,
  views: [...r.views],
  description: r.description,
}));

t.test('the rule table is the pinned one, rule by rule and in order', async (t) => {
  if (writing) writeFileSync(tablePath, `${JSON.stringify(table, null, 2)}\n`);
  const pinned = JSON.parse(readFileSync(tablePath, 'utf8')) as typeof table;
  t.equal(table.length, pinned.length, 'number of rules');
  t.same(
    table.map((r) => r.id),
    pinned.map((r) => r.id),
    'ids in order',
  );
  for (const [i, rule] of table.entries()) t.same(rule, pinned[i], rule.id);
});

t.test('rule ids are unique and each names its family', async (t) => {
  t.equal(new Set(table.map((r) => r.id)).size, table.length);
  for (const r of table) t.match(r.id, /^[a-z-]+\.[a-z0-9-]+$/, r.id);
});
