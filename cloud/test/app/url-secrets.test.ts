/**
 * A credential without the `pgk_` prefix in a URL (last review, item 4): the 404's message, its refusal
 * record and the request log repeated it, since only this server's own keys were masked. Now every long
 * high-entropy run of a URL a refusal quotes is masked (app/url-secrets.ts), while a path of words stays
 * readable.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { withoutUrlSecrets } from '../../src/app/url-secrets.js';
import { bearer, testCloud } from '../helpers/cloud-app.js';

const base64url = randomBytes(32).toString('base64url'); // a key of 43 characters, no prefix
const hex = randomBytes(20).toString('hex');
const jwt = `eyJhbGciOiJIUzI1NiJ9.${Buffer.from('{"sub":"agent-7"}').toString('base64url')}.${randomBytes(32).toString('base64url')}`;

t.test('token-like runs are masked, words are not', async (t) => {
  for (const secret of [base64url, hex, jwt, `sk_live_${randomBytes(12).toString('hex')}`, 'a'.repeat(40)]) {
    const shown = withoutUrlSecrets(`/api/v1/nope/${secret}?x=1`);
    t.notOk(shown.includes(secret), secret);
    t.equal(shown, '/api/v1/nope/[redacted]?x=1', 'the rest of the path stays');
  }
  const encoded = [...base64url].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
  t.equal(withoutUrlSecrets(`/a/${encoded}`), '/a/[redacted]', 'percent-encoded too');
  t.equal(withoutUrlSecrets(`/k/pgk_${base64url}`), '/k/pgk_[redacted]', 'a pgk_ key keeps its mask');
  for (const kept of ['/api/v1/agentgate/propose', '/api/v1/nope/some-missing-route', '/api/v2/proofs']) {
    t.equal(withoutUrlSecrets(kept), kept, kept);
  }
});

t.test('a key without the pgk_ prefix is repeated nowhere', async (t) => {
  const lines: string[] = [];
  const cloud = await testCloud(t, { logger: 'info', logStream: { write: (line) => void lines.push(line) } });
  const before = await cloud.store.auditSize();
  const headers = bearer(cloud.a.keys.auditor);
  const inPath = await cloud.app.inject({ method: 'GET', url: `/api/v1/nope/${base64url}`, headers });
  t.equal(inPath.statusCode, 404);
  t.equal(inPath.json().error.code, 'NOT_FOUND');
  t.equal(inPath.json().error.message, 'no route GET /api/v1/nope/[redacted]', 'named, masked');
  const inQuery = await cloud.app.inject({ method: 'GET', url: `/api/v1/nope?token=${jwt}`, headers });
  t.equal(inQuery.statusCode, 404);
  const asParameter = await cloud.app.inject({ method: 'GET', url: `/api/v1/proofs/${hex}`, headers });
  t.equal(asParameter.json().error.code, 'DECISION_NOT_FOUND');
  const entries = JSON.stringify(
    (await cloud.store.auditEntries(before, await cloud.store.auditSize())).map((e) => e.entry),
  );
  t.ok(lines.length > 0, 'the requests were logged');
  for (const secret of [base64url, jwt, hex]) {
    for (const [where, text] of [
      ['answers', inPath.body + inQuery.body + asParameter.body],
      ['refusal records', entries],
      ['log', lines.join('\n')],
    ] as const) {
      t.notOk(text.includes(secret), `${where}: not repeated`);
    }
  }
});
