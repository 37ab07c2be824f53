/**
 * Request-body bytes per API key per window (app/body-byte-budget.ts), over real HTTP: a key that sends
 * large bodies is refused 429 RATE_LIMITED once its bytes for the window are spent, although it is far
 * below its request count; its decisions before that are untouched, another key of the same tenant and
 * another tenant's keys are not slowed, and the next window gives the key its budget back.
 */
import t from 'tap';
import { bearer, registration, testCloud, transferCall } from '../helpers/cloud-app.js';

const WINDOW_MS = 1_500;
/** Three bodies of ~100 KB fit, a fourth does not. */
const MAX_BODY_BYTES = 350_000;

function largeCall(lobe: string, i: number): object {
  // ~100 KB of ordinary text in a few arguments (each under the screen's per-field limit)
  const page = `Quarterly supplier statement ${i}, line items as agreed. `.repeat(400);
  return transferCall(lobe, 10, {
    id: `large-${i}`,
    arguments: { recipient: `supplier-${i}`, amount: 10, notes: [page, page, page, page, page] },
  });
}

t.test(
  'large bodies spend the key’s byte budget; other keys and the next window are not affected',
  async (t) => {
    const cloud = await testCloud(t, {
      rateLimit: { max: 1000, timeWindowMs: WINDOW_MS, maxBodyBytes: MAX_BODY_BYTES },
    });
    const base = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
    const post = (key: string, path: string, body: object) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const lobeOf = async (key: string) =>
      (
        (await (await post(key, '/api/v1/agentgate/register', registration('bulk-agent'))).json()) as {
          lobe_name: string;
        }
      ).lobe_name;
    const lobe = await lobeOf(cloud.a.keys.agent);
    t.ok(JSON.stringify(largeCall(lobe, 0)).length > 100_000, 'each body is over 100 KB');

    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await post(cloud.a.keys.agent, '/api/v1/agentgate/propose', largeCall(lobe, i))).status);
    t.same(statuses, [200, 200, 200], 'what fits in the budget is decided');
    const refused = await post(cloud.a.keys.agent, '/api/v1/agentgate/propose', largeCall(lobe, 3));
    t.equal(refused.status, 429);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    t.equal(body.error.code, 'RATE_LIMITED');
    t.match(body.error.message, /request bodies of this API key would exceed 350000 bytes in 1\.5 s/);
    const small = await post(cloud.a.keys.agent, '/api/v1/agentgate/propose', transferCall(lobe, 10));
    t.equal(small.status, 200, 'a small body still fits what is left');

    const otherTenant = await lobeOf(cloud.b.keys.agent);
    t.equal(
      (await post(cloud.b.keys.agent, '/api/v1/agentgate/propose', largeCall(otherTenant, 0))).status,
      200,
      "another tenant's key has its own budget",
    );
    const decisions = (
      await cloud.app.inject({
        method: 'GET',
        url: '/api/v1/kernel/audit/events?type=decision&limit=500',
        headers: bearer(cloud.a.keys.auditor),
      })
    ).json().events as unknown[];
    t.equal(decisions.length, 4, 'the refused body decided nothing');

    await new Promise((r) => setTimeout(r, WINDOW_MS + 100));
    t.equal(
      (await post(cloud.a.keys.agent, '/api/v1/agentgate/propose', largeCall(lobe, 4))).status,
      200,
      'the next window gives the budget back',
    );
  },
);
