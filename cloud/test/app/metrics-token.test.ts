/**
 * `/metrics` behind a token (last review, item 6): it was open to whoever reached the port, with every route's
 * traffic and the decisions by outcome. `buildApp({ metricsToken })` / `cloud serve --metrics-token-file` now
 * make it answer only `Authorization: Bearer <token>`; without one it stays open, as documented.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { serveShutdown } from '../../src/cli/serve-command.js';
import { bearer, testCloud } from '../helpers/cloud-app.js';
import { cli, serveInProcess } from '../helpers/cli.js';

const TOKEN = 'metrics-token-0123456789abcdef';

t.test('with a token, /metrics answers only that bearer token', async (t) => {
  const cloud = await testCloud(t, { metricsToken: TOKEN });
  const get = (headers: Record<string, string> = {}) =>
    cloud.app.inject({ method: 'GET', url: '/metrics', headers });
  const none = await get();
  t.equal(none.statusCode, 401);
  t.equal(none.json().error.code, 'UNAUTHENTICATED');
  t.equal(none.headers['www-authenticate'], 'Bearer realm="metrics"');
  t.equal((await get({ authorization: 'Bearer wrong-token-0123456789' })).statusCode, 401, 'a wrong token');
  t.equal((await get(bearer(cloud.a.keys.admin))).statusCode, 401, 'an API key, even an admin one');
  const ok = await get({ authorization: `Bearer ${TOKEN}` });
  t.equal(ok.statusCode, 200);
  t.match(ok.body, /pentagate_http_requests_total/);
});

t.test('without a token, /metrics is open as before', async (t) => {
  const cloud = await testCloud(t);
  t.equal((await cloud.app.inject({ method: 'GET', url: '/metrics' })).statusCode, 200);
});

t.test('cloud serve --metrics-token-file', async (t) => {
  const dir = t.testdir({});
  const file = join(dir, 'metrics-token');
  writeFileSync(file, `${TOKEN}\n`);
  const serving = await serveInProcess(
    '--state-dir',
    join(dir, 'state'),
    '--log-level',
    'silent',
    '--metrics-token-file',
    file,
  );
  t.equal((await fetch(`${serving.base}/metrics`)).status, 401, 'refused without the token');
  const ok = await fetch(`${serving.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  t.equal(ok.status, 200, 'the token from the file (its final newline dropped)');
  serveShutdown.emit('shutdown', 'SIGTERM');
  t.equal(await serving.exit, 0);

  writeFileSync(file, 'short\n');
  const bad = await cli('cloud', 'serve', '--state-dir', join(dir, 'state'), '--metrics-token-file', file);
  t.equal(bad.code, 2);
  t.match(bad.err, /--metrics-token-file: expected one line of 16/);
  const help = await cli('cloud', 'serve', '--help');
  t.match(help.out, /--metrics-token-file/);
});
