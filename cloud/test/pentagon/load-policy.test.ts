import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { canonicalize } from '@pentagate/protocol';
import t from 'tap';
import { parse } from 'yaml';
import { PolicyError, budgetFor, compileGlob, loadPolicy } from '../../src/policy/index.js';

const examplePath = fileURLToPath(new URL('../../policies/example.yaml', import.meta.url));
const exampleText = readFileSync(examplePath, 'utf8');

function problemsOf(text: string): PolicyError {
  try {
    loadPolicy(text, 'test.yaml');
  } catch (err) {
    if (err instanceof PolicyError) return err;
    throw err;
  }
  throw new Error('expected PolicyError');
}

t.test('the documented example policy loads with defaults filled', async (t) => {
  const policy = loadPolicy(exampleText, examplePath);
  t.equal(policy.id, 'acme-default');
  t.match(policy.digest, /^[0-9a-f]{64}$/);
  t.equal(policy.budgets.length, 2);
  t.equal(policy.metabolic.maxIdentical, 3);
  t.equal(policy.injection.threshold, 0.5);
});

t.test('the digest is the JCS digest: reformatting keeps it, a changed value changes it', async (t) => {
  const a = loadPolicy(exampleText, 'a');
  const reordered = JSON.stringify(JSON.parse(canonicalize(parse(exampleText))), null, 2);
  t.equal(loadPolicy(reordered, 'b').digest, a.digest, 'JSON is YAML; same document, same digest');
  t.not(loadPolicy(exampleText.replace('amount: 1000', 'amount: 1001'), 'c').digest, a.digest);
});

t.test('every problem is listed with its path and line, not just the first', async (t) => {
  const err = problemsOf(
    [
      'version: 1',
      'id: p',
      'budgets:',
      '  - id: b',
      '    lobe: "*"',
      '    amount: -5',
      '    windowMs: 10',
      '',
    ].join('\n'),
  );
  t.equal(err.code, 'POLICY_INVALID');
  const paths = err.problems.map((p) => p.path);
  t.ok(paths.includes('/budgets/0/amount'), 'amount reported');
  t.ok(paths.includes('/budgets/0/windowMs'), 'windowMs reported');
  t.equal(err.problems.find((p) => p.path === '/budgets/0/amount')?.line, 6);
  t.match(err.message, /budgets\/0\/amount \(line 6\)/);
});

t.test('semantic problems: duplicate ids, budget subject, data-residency argument', async (t) => {
  const err = problemsOf(`
version: 1
id: p
budgets:
  - { id: dup, amount: 1, windowMs: 1000 }
  - { id: two, lobe: a, agent: b, amount: 1, windowMs: 1000 }
tools:
  denied:
    - { id: dup, tools: [x], reason: r }
jurisdictions:
  - { id: j1, kind: data-residency, allow: [EU], citation: c }
  - { id: j2, kind: region, allow: [EU], citation: c, argument: dest }
injection:
  extraPatterns:
    - { id: dup, phrase: abc, weight: 1 }
`);
  const messages = err.problems.map((p) => `${p.path} ${p.message}`);
  t.ok(messages.some((m) => m.startsWith('/budgets/0 expected exactly one')));
  t.ok(messages.some((m) => m.startsWith('/budgets/1 expected exactly one')));
  t.ok(messages.some((m) => m.includes('/tools/denied/0/id duplicate rule id "dup"')));
  t.ok(messages.some((m) => m.includes('/injection/extraPatterns/0/id duplicate')));
  t.ok(messages.some((m) => m.startsWith('/jurisdictions/0 a data-residency rule needs')));
  t.ok(messages.some((m) => m.startsWith('/jurisdictions/1/argument')));
});

t.test('YAML syntax errors, duplicate keys, oversized text and alias bombs are refused', async (t) => {
  t.match(problemsOf('version: 1\nid: [unclosed\n').problems[0]?.message, /^YAML:/);
  t.match(
    problemsOf('version: 1\nversion: 1\nid: p\n').problems[0]?.message,
    /YAML:.*[Mm]ap keys must be unique/,
  );
  t.match(problemsOf(`# ${'x'.repeat(600 * 1024)}\n`).problems[0]?.message, /expected at most 524288 bytes/);
  const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 0; i < 8; i++)
    bomb.push(
      `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
        .fill(`*${String.fromCharCode(97 + i)}`)
        .join(', ')}]`,
    );
  t.match(problemsOf(bomb.join('\n')).problems[0]?.message, /YAML:.*alias/i);
  t.match(problemsOf('- just\n- a list\n').problems[0]?.message, /expected object/);
});

t.test('an agent budget wins over a lobe budget', async (t) => {
  const policy = loadPolicy(exampleText, 'x');
  t.equal(budgetFor(policy, { agentId: 'treasury-bot', lobeName: 'lobe-1' })?.id, 'treasury-bot-daily');
  t.equal(budgetFor(policy, { agentId: 'other', lobeName: 'lobe-1' })?.id, 'default-hourly');
  const none = loadPolicy('version: 1\nid: p\n', 'x');
  t.equal(budgetFor(none, { agentId: 'a', lobeName: 'l' }), undefined);
});

t.test('globs: names fold case; paths keep * inside one segment', async (t) => {
  t.ok(compileGlob('shell.*', 'name').test('Shell.Exec'));
  t.ok(compileGlob('*', 'name').test('fs/write'));
  t.ok(compileGlob('/etc/**', 'path').test('/etc/ssh/sshd_config'));
  t.notOk(compileGlob('/etc/*', 'path').test('/etc/ssh/sshd_config'));
  t.ok(compileGlob('/tmp/?.txt', 'path').test('/tmp/a.txt'));
  t.notOk(compileGlob('a.b', 'name').test('aXb'), 'dot is literal');
  t.ok(compileGlob('***x', 'name').test('yyx'));
});
