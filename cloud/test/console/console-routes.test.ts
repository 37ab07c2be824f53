/**
 * The console's server side without a browser: the page and its bundle under the strict CSP, a 503 that says
 * what to run when the console was not built, and `GET /api/v1/audit/entries` (own tenant only, newest first,
 * paged with `next`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import t from 'tap';
import { loadConsoleAssets } from '../../src/console/console-assets.js';
import { CONSOLE_CSP, registerConsole } from '../../src/console/register-console.js';
import { bearer, testCloud } from '../helpers/cloud-app.js';

t.test('the page and its bundle are served with the CSP, and need no key', async (t) => {
  const cloud = await testCloud(t);
  for (const [url, type] of [
    ['/console', /^text\/html/],
    ['/console/console.js', /^text\/javascript/],
    ['/console/console.css', /^text\/css/],
  ] as const) {
    const res = await cloud.app.inject({ method: 'GET', url });
    t.equal(res.statusCode, 200, url);
    t.match(res.headers['content-type'], type);
    t.equal(res.headers['content-security-policy'], CONSOLE_CSP);
    t.equal(res.headers['x-content-type-options'], 'nosniff');
  }
  t.match(CONSOLE_CSP, /script-src 'self'(;|$)/, 'no inline script, no eval');
  t.match(CONSOLE_CSP, /frame-ancestors 'none'/);
  const page = (await cloud.app.inject({ method: 'GET', url: '/console' })).body;
  t.notMatch(page, /<script>|style=|https?:\/\//, 'no inline code, nothing from another origin');
});

t.test('an unbuilt console answers 503 with what to run', async (t) => {
  const empty = mkdtempSync(join(tmpdir(), 'pentagate-console-'));
  t.teardown(() => rmSync(empty, { recursive: true, force: true }));
  t.equal(loadConsoleAssets(`${empty}/`), undefined);
  const app = Fastify();
  registerConsole(app, `${empty}/`);
  const res = await app.inject({ method: 'GET', url: '/console' });
  t.equal(res.statusCode, 503);
  t.match(res.body, /run `npm run build`/);
});

t.test("audit entries: the caller's tenant only, newest first, paged", async (t) => {
  const cloud = await testCloud(t);
  const register = (key: string, name: string) =>
    cloud.app.inject({
      method: 'POST',
      url: '/api/v1/agentgate/register',
      headers: bearer(key),
      payload: {
        agent_name: name,
        domain: 'FINANCE',
        capabilities: ['payments.transfer'],
        agent_version: '1.0.0',
        model_id: 'gpt-4o',
      },
    });
  for (const name of ['one', 'two', 'three'])
    t.equal((await register(cloud.a.keys.agent, name)).statusCode, 201);
  t.equal((await register(cloud.b.keys.agent, 'other')).statusCode, 201);
  const list = async (key: string, query = '') => {
    const res = await cloud.app.inject({
      method: 'GET',
      url: `/api/v1/audit/entries${query}`,
      headers: bearer(key),
    });
    t.equal(res.statusCode, 200, res.body);
    return res.json() as {
      entries: { index: number; tenantId?: string; type: string }[];
      next: number | null;
    };
  };
  const all = await list(cloud.a.keys.auditor);
  t.ok(all.entries.length >= 3);
  t.ok(
    all.entries.every((e) => e.tenantId === cloud.a.id),
    'no entry of another tenant',
  );
  const indexes = all.entries.map((e) => e.index);
  t.same(
    indexes,
    [...indexes].sort((x, y) => y - x),
    'newest first',
  );
  const firstPage = await list(cloud.a.keys.auditor, '?limit=2');
  t.same(
    firstPage.entries.map((e) => e.index),
    indexes.slice(0, 2),
  );
  t.type(firstPage.next, 'number');
  const secondPage = await list(cloud.a.keys.auditor, `?limit=2&before=${firstPage.next}`);
  t.same(
    secondPage.entries.map((e) => e.index),
    indexes.slice(2, 4),
    '`before=next` continues with the first entry not shown',
  );
  const agent = await cloud.app.inject({
    method: 'GET',
    url: '/api/v1/audit/entries',
    headers: bearer(cloud.a.keys.agent),
  });
  t.equal(agent.statusCode, 403, 'an agent key cannot browse the log');
});
