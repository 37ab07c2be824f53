/**
 * Every `/api/` answer — success, refusal, unknown route — says `Cache-Control: no-store` and
 * `X-Content-Type-Options: nosniff`: approvals, audit entries and consent requests must not stay in an
 * operator's browser cache, and no JSON answer is sniffed as HTML. The console's pages keep their own headers.
 */
import t from 'tap';
import { bearer, testCloud } from '../helpers/cloud-app.js';

t.test('API answers are never cached or sniffed', async (t) => {
  const cloud = await testCloud(t);
  const answers = {
    approvals: await cloud.app.inject({
      method: 'GET',
      url: '/api/v1/approvals',
      headers: bearer(cloud.a.keys.operator),
    }),
    'audit events': await cloud.app.inject({
      method: 'GET',
      url: '/api/v1/kernel/audit/events',
      headers: bearer(cloud.a.keys.auditor),
    }),
    'no key (401)': await cloud.app.inject({ method: 'GET', url: '/api/v1/approvals' }),
    'unknown route (404)': await cloud.app.inject({
      method: 'GET',
      url: '/api/v1/nothing-here',
      headers: bearer(cloud.a.keys.operator),
    }),
    'malformed body (400)': await cloud.app.inject({
      method: 'POST',
      url: '/api/v1/kernel/authorize',
      headers: { ...bearer(cloud.a.keys.agent), 'content-type': 'application/json' },
      payload: '{"type":',
    }),
  };
  for (const [name, res] of Object.entries(answers)) {
    t.equal(res.headers['cache-control'], 'no-store', `${name}: ${res.statusCode} not stored`);
    t.equal(res.headers['x-content-type-options'], 'nosniff', `${name}: not sniffed`);
  }
  t.equal(answers.approvals.statusCode, 200);
  const page = await cloud.app.inject({ method: 'GET', url: '/console' });
  t.not(page.headers['cache-control'], 'no-store', "the console's page keeps its own caching rule");
});
