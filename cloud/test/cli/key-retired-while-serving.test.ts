/**
 * A signing key retired while a server runs with it: `pentagate cloud keys retire`, run against the same
 * database by another process, must reach the running server, which then signs nothing more with that key.
 * Before, it went on signing until restarted: every approval it handed out after the retirement was refused
 * by verifiers (or a leaked key stayed in use). The server re-reads its keys' status every second
 * (`signingKeyCheckMs`, signing-key-watch.ts) and answers what needs a signature with 503
 * SIGNING_KEY_RETIRED; what needs none is served as before. On SQLite and, with CI=true, PostgreSQL: the
 * CLI opens its own store handle, as another process does.
 */
import t, { type Test } from 'tap';
import { DEFAULT_SIGNING_KEY_CHECK_MS } from '../../src/keys/signing-key-watch.js';
import type { Store } from '../../src/store/store.js';
import { cli } from '../helpers/cli.js';
import {
  bearer,
  httpCaller,
  registerLobe,
  registration,
  selfCorrectBody,
  testCloud,
  transferCall,
} from '../helpers/cloud-app.js';
import { digestOf, ledgerWrite, vaultWrite } from '../kernel/kernel-helpers.js';
import { openTestPostgres, POSTGRES_URL, requirePostgres } from '../helpers/postgres.js';

/** How long past the check interval a loaded test machine may take to show the refusal. */
const SLACK_MS = 4000;

const kidOfToken = (token: string) => token.split('.')[1];

/** The store a cloud runs on and the `--db` that names the same database to the CLI. */
type Dialect = (t: Test) => Promise<{ store?: Store; db: (dir: string) => string } | undefined>;

function retiredWhileServing(name: string, dialect: Dialect): void {
  t.test(`${name}: a key retired while the server runs signs nothing more`, async (t) => {
    const opened = await dialect(t);
    if (!opened) return;
    const cloud = await testCloud(t, opened.store ? { store: opened.store } : {});
    const call = httpCaller(await cloud.app.listen({ port: 0, host: '127.0.0.1' }));
    const { agent, auditor, operator } = cloud.a.keys;
    const lobe = await registerLobe(cloud, cloud.a);
    let n = 0;
    // each to another supplier, named in letters: calls that differ only in numbers are vetoed as a loop
    const propose = () => {
      n += 1;
      const name = (n + 26 * 26).toString(26).replace(/./g, (d) => String.fromCharCode(97 + parseInt(d, 26)));
      const args = { recipient: `supplier ${name}`, amount: 5, currency: 'USD', memo: `invoice ${name}` };
      return call(agent, 'POST', '/api/v1/agentgate/propose', transferCall(lobe, 5, { arguments: args }));
    };
    const kids = ((await (await call(auditor, 'GET', '/api/v1/keys')).json()).keys as { kid: string }[]).map(
      (k) => k.kid,
    );
    // an operator's approval signs too: this one waits for it across the retirement
    const held = vaultWrite();
    const waiting = await (await call(agent, 'POST', '/api/v1/kernel/authorize', held)).json();
    t.equal(waiting.status, 'REQUIRE_HUMAN');
    const first = await propose();
    t.equal(first.status, 200);
    const firstToken = (await first.json()).governance_token as string;
    t.ok(kids.includes(kidOfToken(firstToken)!), 'signed by the key the server started with');

    // another store handle, as another process: the server's own never wrote the retirement
    for (const kid of kids) {
      const retired = await cli('cloud', 'keys', 'retire', kid, '--db', opened.db(cloud.dir));
      t.equal(retired.code, 0, retired.err);
      t.match(
        retired.err,
        /stops signing with it within a second/,
        'the CLI says what a running server does',
      );
    }
    const retiredAt = Date.now();
    let refused: Response | undefined;
    const signedAfter: string[] = [];
    while (Date.now() - retiredAt < DEFAULT_SIGNING_KEY_CHECK_MS + SLACK_MS) {
      const res = await propose();
      if (res.status !== 200) {
        refused = res;
        break;
      }
      const answer = await res.json();
      t.equal(answer.approved, true, answer.reason);
      signedAfter.push(answer.governance_token);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    t.ok(
      refused,
      `a propose is refused within ${DEFAULT_SIGNING_KEY_CHECK_MS} ms (+ slack) of the retirement`,
    );
    if (!refused) return;
    t.comment(
      `refused ${Date.now() - retiredAt} ms after the retirement, ${signedAfter.length} signed before`,
    );
    t.equal(refused.status, 503);
    const body = await refused.json();
    t.equal(body.error.code, 'SIGNING_KEY_RETIRED');
    t.match(body.error.message, /was retired at .* restarted with the key that replaced it/);
    t.ok(
      signedAfter.every((token) => kids.includes(kidOfToken(token)!)),
      'until then it signed with the key it started with',
    );

    const auditSize = await cloud.store.auditSize();
    const refusedToo = [
      ['propose', await propose()],
      ['selfcorrect', await call(agent, 'POST', '/api/v1/selfcorrect', selfCorrectBody('billing-agent', 10))],
      [
        'kernel authorize',
        await call(agent, 'POST', '/api/v1/kernel/authorize', ledgerWrite(5, 'billing-agent')),
      ],
      ['checkpoint', await call(auditor, 'GET', '/api/v1/audit/checkpoint')],
      [
        'approve',
        await call(operator, 'POST', `/api/v1/approvals/${waiting.proposalId}/approve`, {
          actionDigest: digestOf(held),
        }),
      ],
    ] as const;
    for (const [what, res] of refusedToo) {
      t.equal(res.status, 503, `${what}: refused`);
      t.equal((await res.json()).error?.code, 'SIGNING_KEY_RETIRED', what);
    }
    const entries = await cloud.store.auditEntries(auditSize, await cloud.store.auditSize());
    t.same(
      entries.map((e) => e.entry.type).filter((type) => type === 'decision'),
      [],
      'no decision was written for the refused requests',
    );
    const pending = await (await call(operator, 'GET', '/api/v1/approvals')).json();
    t.same(
      pending.items.map((i: { id: string }) => i.id),
      [waiting.proposalId],
      'the refused approval changed nothing: the proposal still waits',
    );

    const keys = await call(auditor, 'GET', '/api/v1/keys');
    t.equal(keys.status, 200, 'what needs no signature is served as before');
    t.ok(
      ((await keys.json()).keys as { notAfter?: string }[]).every((k) => k.notAfter),
      'and lists both keys as retired',
    );
    const again = await call(agent, 'POST', '/api/v1/agentgate/register', registration('other-agent'));
    t.equal(again.status, 201, 'registration signs nothing');
  });
}

retiredWhileServing('SQLite', async () => ({ db: (dir) => `sqlite:${dir}/cloud.db` }));
retiredWhileServing('PostgreSQL', async (t) => {
  if (!(await requirePostgres(t))) return undefined;
  const store = await openTestPostgres(t);
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${store.schema}`);
  return { store, db: () => url.href };
});

t.test('a propose reads no key status: the watch reads on its own timer', async (t) => {
  const cloud = await testCloud(t, { signingKeyCheckMs: 3_600_000 });
  const lobe = await registerLobe(cloud, cloud.a);
  const store = cloud.store;
  let reads = 0;
  const list = store.listSigningKeys.bind(store);
  store.listSigningKeys = () => {
    reads += 1;
    return list();
  };
  for (let i = 0; i < 20; i++) {
    const res = await cloud.app.inject({
      method: 'POST',
      url: '/api/v1/agentgate/propose',
      headers: bearer(cloud.a.keys.agent),
      payload: transferCall(lobe, 10),
    });
    t.equal(res.statusCode, 200);
  }
  t.equal(reads, 0, 'twenty proposes, no read of the signing keys');
});
