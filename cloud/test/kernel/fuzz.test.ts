/**
 * Fuzz the kernel's input routes: random payloads (any JSON object under any ActionType), mutated
 * contexts, hostile JSON (helpers/hostile-json.ts), random proposal ids, approval bodies and query strings. The server must never answer 5xx,
 * and every answer must be either a decision or a JSON error.
 */
import fc from 'fast-check';
import t from 'tap';
import { ACTION_TYPES } from '@pentagate/protocol';
import { bearer } from '../helpers/cloud-app.js';
import { hostileBody } from '../helpers/hostile-json.js';
import { kernelCloud } from './kernel-helpers.js';

const RUNS = 600;

const action = fc.record(
  {
    type: fc.oneof(
      { weight: 9, arbitrary: fc.constantFrom(...ACTION_TYPES) },
      { weight: 1, arbitrary: fc.string({ maxLength: 16 }) },
    ),
    payload: fc.oneof(
      fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 4 })),
      fc.record({
        amount: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.jsonValue()),
        recipient: fc.jsonValue(),
      }),
      fc.jsonValue(),
    ),
    context: fc.oneof(
      fc.record(
        {
          agentId: fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
          confidenceScore: fc.double({ min: 0, max: 1, noNaN: true }),
        },
        { requiredKeys: ['agentId', 'confidenceScore'] },
      ),
      fc.record({ agentId: fc.string({ maxLength: 30 }), reason: fc.string({ maxLength: 200 }) }),
      fc.jsonValue(),
    ),
    idempotencyKey: fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,15}$/),
  },
  { requiredKeys: ['type', 'payload', 'context'] },
);

t.test('random kernel input never gets a 5xx', async (t) => {
  const c = await kernelCloud(t);
  const statuses = new Map<number, number>();
  const seen = (code: number) => statuses.set(code, (statuses.get(code) ?? 0) + 1);
  await fc.assert(
    fc.asyncProperty(
      action,
      fc.string({ maxLength: 40 }),
      fc.jsonValue(),
      fc.constantFrom('approve', 'deny', 'veto'),
      fc.string({ maxLength: 40 }),
      hostileBody({
        actionType: 'ledger:write',
        payload: { amount: 5, recipient: 'supplier-1', currency: 'USD' },
        context: { agentId: 'hostile-bot' },
      }),
      async (body, id, approvalBody, verb, query, hostile) => {
        const requests: { method: 'GET' | 'POST'; url: string; payload?: string | Buffer; key: string }[] = [
          { method: 'POST', url: '/api/v1/kernel/authorize', payload: hostile, key: c.a.keys.agent },
          {
            method: 'POST' as const,
            url: '/api/v1/kernel/authorize',
            payload: JSON.stringify(body),
            key: c.a.keys.agent,
          },
          {
            method: 'POST' as const,
            url: '/api/v1/kernel/execute',
            payload: JSON.stringify({ proposalId: id }),
            key: c.a.keys.agent,
          },
          {
            method: 'POST' as const,
            url: `/api/v1/approvals/${encodeURIComponent(id) || 'x'}/${verb}`,
            payload: JSON.stringify(approvalBody) ?? 'null',
            key: c.a.keys.operator,
          },
          {
            method: 'GET' as const,
            url: `/api/v1/kernel/audit/events?${encodeURIComponent(query)}=${encodeURIComponent(id)}`,
            key: c.a.keys.auditor,
          },
          {
            method: 'GET' as const,
            url: `/api/v1/kernel/replay/${encodeURIComponent(id) || 'x'}?policy=${encodeURIComponent(query)}`,
            key: c.a.keys.auditor,
          },
        ];
        for (const r of requests) {
          const res = await c.app.inject({
            method: r.method,
            url: r.url,
            headers: {
              ...bearer(r.key),
              ...(r.payload !== undefined ? { 'content-type': 'application/json' } : {}),
            },
            ...(r.payload !== undefined ? { payload: r.payload } : {}),
          });
          seen(res.statusCode);
          if (res.statusCode >= 500)
            throw new Error(`${r.method} ${r.url} → ${res.statusCode}: ${res.body.slice(0, 300)}`);
          const json = res.json();
          if (res.statusCode >= 400 && typeof json.error?.code !== 'string')
            throw new Error(`no JSON error: ${res.body}`);
        }
      },
    ),
    { numRuns: RUNS },
  );
  t.ok((statuses.get(200) ?? 0) > 0, 'some random actions were decided');
  t.ok((statuses.get(400) ?? 0) > 0, 'some were refused as invalid');
  t.comment(`statuses: ${JSON.stringify(Object.fromEntries(statuses))}`);
});
