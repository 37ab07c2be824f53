/**
 * Input that once reached the handlers and made them fail with 500 (SQLite) or 503 (PostgreSQL): lone
 * surrogates in values and in member names, ±1e309 in free-form `arguments` and `payload`, 3,000-deep
 * nesting, U+0000 (which PostgreSQL text cannot hold: a refusal naming such a member could not be
 * recorded); bytes that are not UTF-8, and bodies declared in another charset. Each is refused with a 4xx
 * over a real socket before anything is written except its refusal record, and selfcorrect registers no
 * agent for it. On both stores.
 */
import t, { type Test } from 'tap';
import type { Store } from '../../src/store/store.js';
import { bearer, registerLobe, testCloud } from '../helpers/cloud-app.js';
import { openTestPostgres, requirePostgres } from '../helpers/postgres.js';

const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

interface HostileCase {
  name: string;
  url: string;
  body: string | Uint8Array<ArrayBuffer>;
  contentType?: string;
  status: number;
  code: string;
  message: RegExp;
  /** The JSON Pointer `details.issues` names for a value the parser refuses. */
  path?: string;
  /** selfcorrect: the agent id that must not be registered by the refused request */
  agentId?: string;
}

function selfcorrect(agentId: string, argumentsText: string): string {
  return `{"agent_id":"${agentId}","action":{"tool_name":"crm.update","arguments":${argumentsText}},"domain":"SALES"}`;
}

function cases(lobe: string): HostileCase[] {
  const propose = (argumentsText: string) =>
    `{"lobe_name":"${lobe}","tool_name":"payments.transfer","arguments":${argumentsText},"spend_amount":1}`;
  const authorize = (payloadText: string) =>
    `{"actionType":"ledger:write","payload":${payloadText},"context":{"agentId":"hostile-bot"}}`;
  return [
    {
      name: 'a lone surrogate in a value',
      url: '/api/v1/selfcorrect',
      body: selfcorrect('sc-lone-value', '{"note":"a\\ud800b"}'),
      status: 400,
      code: 'INVALID_JSON',
      message: /lone surrogate/,
      path: '/action/arguments/note',
      agentId: 'sc-lone-value',
    },
    {
      name: 'a lone surrogate as a member name in arguments',
      url: '/api/v1/selfcorrect',
      body: selfcorrect('sc-lone-key', '{"\\udc00":1}'),
      status: 400,
      code: 'INVALID_JSON',
      message: /lone surrogate/,
      path: '/action/arguments/\ufffd',
      agentId: 'sc-lone-key',
    },
    {
      name: 'a lone surrogate as a top-level member name',
      url: '/api/v1/agentgate/register',
      body: '{"\\ud800":1,"agent_name":"x","version":"1","domain":"GENERAL"}',
      status: 400,
      code: 'INVALID_JSON',
      message: /lone surrogate/,
      path: '/\ufffd',
    },
    {
      name: 'U+0000 in propose arguments',
      url: '/api/v1/agentgate/propose',
      body: propose('{"memo":"a\\u0000b"}'),
      status: 400,
      code: 'INVALID_JSON',
      message: /without U\+0000/,
      path: '/arguments/memo',
    },
    {
      name: 'U+0000 in an unknown top-level member name',
      url: '/api/v1/agentgate/register',
      body: '{"a\\u0000":1,"agent_name":"x","version":"1","domain":"GENERAL"}',
      status: 400,
      code: 'INVALID_JSON',
      message: /without U\+0000/,
      path: '/a\u0000',
    },
    {
      name: '1e309 in selfcorrect arguments',
      url: '/api/v1/selfcorrect',
      body: selfcorrect('sc-overflow', '{"amount":1e309}'),
      status: 400,
      code: 'INVALID_JSON',
      message: /not finite/,
      path: '/action/arguments/amount',
      agentId: 'sc-overflow',
    },
    {
      name: '-1e309 in propose arguments',
      url: '/api/v1/agentgate/propose',
      body: propose('{"amount":-1e309}'),
      status: 400,
      code: 'INVALID_JSON',
      message: /not finite/,
      path: '/arguments/amount',
    },
    {
      name: '1e309 in a kernel payload',
      url: '/api/v1/kernel/authorize',
      body: authorize('{"amount":1e309,"recipient":"r"}'),
      status: 400,
      code: 'INVALID_JSON',
      message: /not finite/,
      path: '/payload/amount',
    },
    {
      name: '3,000-deep selfcorrect arguments',
      url: '/api/v1/selfcorrect',
      body: selfcorrect('sc-deep', `{"x":${nested(3000)}}`),
      status: 400,
      code: 'INVALID_JSON',
      message: /nesting at most 64 deep/,
      agentId: 'sc-deep',
    },
    {
      name: '3,000-deep kernel payload',
      url: '/api/v1/kernel/authorize',
      body: authorize(`{"x":${nested(3000)}}`),
      status: 400,
      code: 'INVALID_JSON',
      message: /nesting/,
    },
    {
      name: 'bytes that are not UTF-8 in a name',
      url: '/api/v1/agentgate/register',
      body: Buffer.concat([
        Buffer.from('{"agent_name":"'),
        Buffer.from([0xff]),
        Buffer.from('fz","version":"1","domain":"GENERAL"}'),
      ]),
      status: 400,
      code: 'INVALID_JSON',
      message: /not valid UTF-8/,
    },
    {
      name: 'a body declared as UTF-16',
      url: '/api/v1/agentgate/register',
      body: Buffer.from('{"agent_name":"u16","version":"1","domain":"GENERAL"}', 'utf16le'),
      contentType: 'application/json; charset=utf-16',
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: /UTF-8.*got charset "utf-16"/,
    },
    {
      name: 'a body declared as latin1',
      url: '/api/v1/agentgate/register',
      body: '{"agent_name":"l1","version":"1","domain":"GENERAL"}',
      contentType: 'application/json; charset=ISO-8859-1',
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: /got charset "ISO-8859-1"/,
    },
  ];
}

async function refusesHostileInput(t: Test, store?: Store): Promise<void> {
  const cloud = await testCloud(t, store ? { store } : {});
  const lobe = await registerLobe(cloud, cloud.a);
  const base = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  for (const c of cases(lobe)) {
    const size = await cloud.store.auditSize();
    const res = await fetch(`${base}${c.url}`, {
      method: 'POST',
      headers: { ...bearer(cloud.a.keys.agent), 'content-type': c.contentType ?? 'application/json' },
      body: c.body,
    });
    t.equal(res.status, c.status, `${c.name}: status`);
    const body = (await res.json()) as {
      error: { code: string; message: string; details?: { issues?: { path: string }[] } };
    };
    t.equal(body.error.code, c.code, `${c.name}: code`);
    t.match(body.error.message, c.message, `${c.name}: the message names the problem`);
    if (c.path !== undefined)
      t.same(
        body.error.details?.issues?.map((i) => i.path),
        [c.path],
        `${c.name}: the field is named`,
      );
    t.equal(await cloud.store.auditSize(), size + 1, `${c.name}: one write, the refusal record`);
    const [entry] = await cloud.store.auditEntries(size, size + 1);
    t.equal(entry?.entry.type, 'refusal', `${c.name}: it is the refusal`);
    t.equal(entry?.entry.data.code, c.code);
    if (c.agentId !== undefined) {
      t.equal(
        await cloud.store.findAgentById(cloud.a.id, c.agentId),
        undefined,
        `${c.name}: no agent registered`,
      );
    }
  }
}

t.test('hostile input is refused with a 4xx and one refusal record (SQLite)', async (t) => {
  await refusesHostileInput(t);
});

t.test('hostile input is refused with a 4xx and one refusal record (PostgreSQL)', async (t) => {
  if (!(await requirePostgres(t))) return;
  await refusesHostileInput(t, await openTestPostgres(t));
});

/** A query member named with U+0000: its refusal names it, and the refusal record must still be written. */
async function refusesNulInQuery(t: Test, store?: Store): Promise<void> {
  const cloud = await testCloud(t, store ? { store } : {});
  const base = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const size = await cloud.store.auditSize();
  const res = await fetch(`${base}/api/v1/audit/entries?a%00=1`, { headers: bearer(cloud.a.keys.auditor) });
  t.equal(res.status, 400, 'a 4xx, not a store failure');
  t.equal(((await res.json()) as { error: { code: string } }).error.code, 'INVALID_QUERY');
  const entries = await cloud.store.auditEntries(size, await cloud.store.auditSize());
  t.same(
    entries.map((e) => e.entry.type),
    ['refusal'],
    'the refusal is recorded',
  );
  t.notOk(String(entries[0]?.entry.data.message).includes('\u0000'), 'its message holds no U+0000');
}

t.test('a query member named with U+0000 is refused and recorded (SQLite)', async (t) => {
  await refusesNulInQuery(t);
});

t.test('a query member named with U+0000 is refused and recorded (PostgreSQL)', async (t) => {
  if (!(await requirePostgres(t))) return;
  await refusesNulInQuery(t, await openTestPostgres(t));
});
