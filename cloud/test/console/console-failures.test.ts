/**
 * What the operator sees in the console when the network or the cloud fails, in a real Chromium against a real
 * in-process cloud: a consent POST whose answer is lost, or that is never answered, is said so and retried with
 * the token already signed (nothing is signed twice, nothing stays at "sending…"); an unreachable cloud, a queue
 * that can no longer be checked, a refused live stream and a key revoked in use are said plainly.
 */
import t, { type Test } from 'tap';
import { skipWithoutChromium } from '../../../scripts/test/chromium.js';
import { ANSWER_TIMEOUT_MS } from '../../console/src/api.js';
import { revokeApiKey } from '../../src/tenants/tenant-admin.js';
import { consoleBench } from '../helpers/console-bench.js';

const missing = skipWithoutChromium(t);
t.test('failures in the operator console', { skip: missing ?? false }, run);

async function run(t: Test): Promise<void> {
  const { cloud, base, browser, robotMove, signedIn, robotCard } = await consoleBench(t);

  await t.test(
    'a consent POST whose answer is lost is retried with the same token, signed once',
    async (t) => {
      const move = await robotMove();
      const { page, decisions } = await signedIn();
      // the POST reaches the cloud, which relays the token; its answer never reaches the page
      await page.route(
        '**/grant',
        async (route) => {
          await route.fetch();
          await route.abort('connectionreset');
        },
        { times: 1 },
      );
      const card = robotCard(page, move.intentDigest);
      const button = card.getByRole('button', { name: /^Sign consent/ });
      await button.click();
      await card.locator('.outcome', { hasText: 'the cloud did not answer' }).waitFor();
      t.match(
        await card.locator('.outcome').textContent(),
        /^Consent not relayed: POST .* check the network/,
      );
      t.ok(await button.isEnabled(), 'the operator may try again');
      await button.click();
      await card.locator('.outcome', { hasText: 'already decided' }).waitFor();
      t.equal(decisions.length, 2);
      t.equal(
        decisions[0]!.postData(),
        decisions[1]!.postData(),
        'the retry sent the token signed the first time',
      );
      t.ok(await button.isDisabled(), 'and nothing is left to retry');
      await page.context().close();
    },
  );

  await t.test(
    'a consent POST never answered is given up after a while, said so, and can be retried',
    async (t) => {
      const move = await robotMove();
      const { page, decisions } = await signedIn();
      // lost on the way: neither answered nor refused
      await page.route('**/grant', () => {}, { times: 1 });
      const card = robotCard(page, move.intentDigest);
      const button = card.getByRole('button', { name: /^Sign consent/ });
      await button.click();
      t.equal(await card.locator('.outcome').textContent(), 'sending…');
      await card
        .locator('.outcome', { hasText: `no answer within ${ANSWER_TIMEOUT_MS / 1000} s` })
        .waitFor({ timeout: ANSWER_TIMEOUT_MS + 10_000 });
      t.ok(await button.isEnabled(), 'not stuck: the operator may try again');
      await button.click();
      await card.locator('.outcome', { hasText: /relayed \(audit entry \d+\)/ }).waitFor();
      t.equal(decisions.length, 2);
      t.equal(decisions[0]!.postData(), decisions[1]!.postData(), 'the retry sent the token already signed');
      await page.context().close();
    },
  );

  await t.test(
    'an unreachable cloud, a failing queue check and a revoked key are said plainly',
    async (t) => {
      const page = await (await browser.newContext()).newPage();
      await page.route('**/api/v1/fleet/robots', (route) => route.abort('connectionrefused'), {
        times: 1,
      });
      await page.goto(`${base}/console`);
      await page.getByLabel('Operator or auditor API key').fill(cloud.a.keys.operator);
      await page.getByRole('button', { name: 'Sign in' }).click();
      t.match(
        await page.getByRole('alert').textContent(),
        /^Cannot sign in: GET \/api\/v1\/fleet\/robots: the cloud did not answer/,
      );

      // an agent key is a valid key, but not one the console's views accept: refused at sign-in
      await page.getByLabel('Operator or auditor API key').fill(cloud.a.keys.agent);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'not an operator or auditor key' }).waitFor();
      t.notOk(await page.getByRole('heading', { name: 'Approvals' }).isVisible(), 'not signed in');

      await page.getByLabel('Operator or auditor API key').fill(cloud.a.keys.operator);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Approvals' }).waitFor();
      await page.route('**/api/v1/approvals', (route) => route.abort('connectionrefused'));
      await page.locator('#queue-changed', { hasText: 'The queue cannot be checked' }).waitFor();
      t.match(await page.locator('#queue-changed').textContent(), /may be out of date/);
      await page.unroute('**/api/v1/approvals');

      await page.route('**/api/v1/fleet/live', (route) => route.fulfill({ status: 403, json: {} }));
      let liveCalls = 0;
      page.on('request', (r) => {
        if (r.url().endsWith('/api/v1/fleet/live')) liveCalls++;
      });
      await page.getByRole('button', { name: 'Live' }).click();
      await page.locator('#live-state', { hasText: 'stopped' }).waitFor();
      await page.waitForTimeout(1500);
      t.equal(liveCalls, 1, 'a refused live stream is not retried for ever');
      await page.unroute('**/api/v1/fleet/live');

      await page.getByRole('button', { name: 'Approvals' }).click();
      await page.getByRole('heading', { name: 'Approvals' }).waitFor();
      const operatorKeyId = (await cloud.store.listApiKeys(cloud.a.id)).find(
        (k) => k.scope === 'operator',
      )!.id;
      await revokeApiKey(cloud.store, cloud.a.id, operatorKeyId);
      await page.locator('#queue-changed', { hasText: 'This key is no longer accepted' }).waitFor();
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.locator('#queue-changed', { hasText: 'the API key was revoked' }).waitFor();
      await page.getByRole('button', { name: 'Audit' }).click();
      await page.getByRole('alert').waitFor();
      t.match(await page.getByRole('alert').textContent(), /no longer accepts this key/);
      t.equal(
        await page.evaluate("sessionStorage.getItem('pentagate.apiKey')"),
        null,
        'the key is forgotten',
      );
      await page.context().close();
    },
  );
}
