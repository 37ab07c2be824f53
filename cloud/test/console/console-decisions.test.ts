/**
 * What the operator consents to in the console, in a real Chromium against a real in-process cloud, when the
 * operator slips and the agents, robots or network misbehave: a double click or a held Enter decides once and
 * never lands on the next card; a card past its deadline sends and signs nothing; a robot card names what the
 * intent itself says (a robot's request cannot relabel the move) and is not signable when its intent does not
 * hash to the digest to sign; invisible characters and long words from agents and robots are shown, not
 * obeyed; a failed consent POST is retried with the token already signed; an unreachable cloud and a revoked
 * key are said plainly.
 */
import t, { type Test } from 'tap';
import type { Page, Request } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from '../../../scripts/test/chromium.js';
import { revokeApiKey } from '../../src/tenants/tenant-admin.js';
import { bearer, testCloud } from '../helpers/cloud-app.js';
import { consentRequestFor, liftIntent } from '../helpers/consent.js';
import { testRobot } from '../helpers/fleet.js';
import { ledgerWrite } from '../kernel/kernel-helpers.js';

const missing = skipWithoutChromium(t);
t.test('decisions in the operator console', { skip: missing ?? false }, run);

async function run(t: Test): Promise<void> {
  const cloud = await testCloud(t, { kernel: { expirySweepMs: 0 } });
  const base = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await launchChromium(t);
  const inject = (method: 'GET' | 'POST', key: string, url: string, payload?: object) =>
    cloud.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
  const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
  const needsHuman = async () => {
    const action = ledgerWrite(20, 'billing-bot', {
      context: { agentId: 'billing-bot', confidenceScore: 0.1 },
    });
    const out = (await inject('POST', cloud.a.keys.agent, '/api/v1/kernel/authorize', action)).json();
    t.equal(out.status, 'REQUIRE_HUMAN');
    return out.proposalId as string;
  };
  const robotMove = async (waitMs = 120_000, bend: (r: Record<string, unknown>) => void = () => {}) => {
    const request = consentRequestFor(liftIntent('arm-1'), Date.now(), waitMs);
    bend(request as unknown as Record<string, unknown>);
    const posted = await inject('POST', edgeKey, '/api/v1/fleet/robots/arm-1/consent-requests', request);
    t.equal(posted.statusCode, 200, posted.body);
    return request;
  };
  const pending = async () => (await inject('GET', cloud.a.keys.operator, '/api/v1/approvals')).json();
  /** A new tab signed in with `key`, and the decisions (approve/deny/veto/grant POSTs) it sends. */
  const signedIn = async (key = cloud.a.keys.operator) => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    const decisions: Request[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/(approve|deny|veto|grant)$/.test(r.url())) decisions.push(r);
    });
    await page.goto(`${base}/console`);
    await page.getByLabel('Operator or auditor API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Approvals' }).waitFor();
    return { page, decisions };
  };
  const robotCard = (page: Page, digest: string) =>
    page.locator(`section.robot-consent[data-intent-digest="${digest}"]`);
  /** Two clicks 250 ms apart at one spot, as a hurried double click by hand. */
  const doubleClick = async (page: Page, button: ReturnType<Page['locator']>) => {
    await button.scrollIntoViewIfNeeded();
    const box = (await button.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForTimeout(250);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForTimeout(500);
  };

  await t.test(
    'a double click decides once, and its second click never lands on the next card',
    async (t) => {
      const first = await needsHuman();
      const second = await needsHuman();
      const [moveA, moveB] = [await robotMove(), await robotMove()];
      const { page, decisions } = await signedIn();
      const kernelCard = page.locator(`section.kernel-item[data-id="${first}"]`);
      await doubleClick(page, kernelCard.getByRole('button', { name: /^approve/ }));
      await kernelCard.locator('.outcome', { hasText: /approved \(audit entry \d+\)/ }).waitFor();
      t.same(
        decisions.map((r) => new URL(r.url()).pathname),
        [`/api/v1/approvals/${first}/approve`],
        'one approval sent',
      );
      t.ok(
        (await pending()).items.some((i: { id: string }) => i.id === second),
        'the next proposal is still waiting',
      );
      t.ok(await kernelCard.isVisible(), 'the decided card stays where it was');

      decisions.length = 0;
      const cardA = robotCard(page, moveA.intentDigest);
      await doubleClick(page, cardA.getByRole('button', { name: /^Sign consent/ }));
      await cardA.locator('.outcome', { hasText: /relayed \(audit entry \d+\)/ }).waitFor();
      t.equal(decisions.length, 1, 'one consent signed and sent');
      t.same(
        (await pending()).robotConsents.map((c: { intentDigest: string }) => c.intentDigest),
        [moveB.intentDigest],
        'the next robot move still waits for its own consent',
      );
      t.ok(await cardA.getByRole('button', { name: /^Sign consent/ }).isDisabled());
      await page.locator('#queue-changed', { hasText: 'press Refresh' }).waitFor();
      await page.getByRole('button', { name: 'Refresh' }).click();
      await cardA.waitFor({ state: 'detached' });
      await page.context().close();
    },
  );

  await t.test(
    'focus never rests on a decision button: Enter pressed by accident decides nothing',
    async (t) => {
      const id = await needsHuman();
      const { page, decisions } = await signedIn();
      const focused = () =>
        page.evaluate('document.activeElement?.closest("section.card") ? "card" : "page"');
      t.equal(await focused(), 'page', 'after sign-in focus is on no card');
      for (let i = 0; i < 3; i++) await page.keyboard.press('Enter');
      await page.waitForTimeout(300);
      t.equal(decisions.length, 0, 'Enter decided nothing');
      await page
        .locator(`section.kernel-item[data-id="${id}"]`)
        .getByRole('button', { name: /^deny/ })
        .focus();
      // a held Enter: the repeats after the first must not decide this card again or another one
      for (let i = 0; i < 5; i++) await page.keyboard.press('Enter');
      await page.locator(`section.kernel-item[data-id="${id}"] .outcome`, { hasText: 'denied' }).waitFor();
      await page.waitForTimeout(300);
      t.equal(decisions.length, 1, 'one decision');
      t.equal(
        await page.evaluate('document.activeElement?.className'),
        'outcome ok',
        'focus rests on the outcome line, not on a button',
      );
      await page.context().close();
    },
  );

  await t.test('past its deadline a robot card signs and sends nothing', async (t) => {
    const move = await robotMove(6_000);
    const { page, decisions } = await signedIn();
    const card = robotCard(page, move.intentDigest);
    const button = card.getByRole('button', { name: /^Sign consent/ });
    t.ok(await button.isEnabled(), 'signable before the deadline');
    await card.locator('.countdown', { hasText: 'edge vetoes passed' }).waitFor();
    await card.locator('button:disabled', { hasText: 'Sign consent' }).waitFor();
    t.pass('the button is disabled once the countdown reaches 0');
    // the page itself refuses too, should a click get through before the ticker disables the button
    await button.evaluate((b) => {
      const el = b as unknown as { disabled: boolean; click(): void };
      el.disabled = false;
      el.click();
    });
    await card.locator('.outcome', { hasText: 'The deadline has passed: nothing was sent.' }).waitFor();
    t.equal(decisions.length, 0, 'no consent sent');
    t.same(
      await page.evaluate('indexedDB.databases().then((dbs) => dbs.map((db) => db.name))'),
      [],
      'no key was even made in this browser: nothing was signed',
    );
    await page.context().close();
  });

  await t.test('a robot card names what the intent says, and a robot cannot relabel the move', async (t) => {
    // the request's own labels say a gentle wave; the intent (what the digest binds) is a heavy lift
    const move = await robotMove(120_000, (r) => {
      r.moveClass = 'gentle-wave';
      r.intentId = 'wave-1';
    });
    const { page, decisions } = await signedIn();
    const card = robotCard(page, move.intentDigest);
    const intentId = move.intent.intentId;
    t.equal(
      await card.locator('h3').textContent(),
      'Robot arm-1: lift joint-trajectory (high-torque)',
      "the title is the intent's move class and kind",
    );
    t.notMatch(await card.textContent(), /wave/, 'the labels the intent does not carry are not shown');
    t.match(
      await card.locator('details pre').textContent(),
      `"intentId": "${intentId}"`,
      'the intent itself',
    );
    t.equal(await card.getByRole('button', { name: `Sign consent for ${intentId} on arm-1` }).count(), 1);
    t.equal(decisions.length, 0);
    await page.context().close();
  });

  await t.test('a card whose intent does not hash to the digest to sign cannot be signed', async (t) => {
    const move = await robotMove();
    const { page, decisions } = await signedIn();
    // what a cloud (or anything on the way) that wants a lift consented to would show: a light move
    await page.route('**/api/v1/approvals', async (route) => {
      const queue = await (await route.fetch()).json();
      for (const c of queue.robotConsents) {
        if (c.intentDigest === move.intentDigest) c.request.intent.points[1].effortsNm = [40, 30];
      }
      await route.fulfill({ json: queue });
    });
    await page.getByRole('button', { name: 'Refresh' }).click();
    const card = robotCard(page, move.intentDigest);
    await card.getByRole('alert').waitFor();
    t.match(
      await card.getByRole('alert').textContent(),
      /Not signable: the intent shown hashes to [0-9a-f]{64}/,
    );
    t.equal(await card.getByRole('button', { name: /^Sign consent/ }).count(), 0, 'no Sign button');
    t.equal(decisions.length, 0);
    await page.context().close();
  });

  await t.test('invisible characters and long words from robots are shown, not obeyed', async (t) => {
    const long = 'x'.repeat(500);
    const move = await robotMove(120_000, (r) => {
      r.reasons = [`torque\u202E)egral(`, `a\u200Bb`, long, '<img src=x onerror="document.title=1">'];
    });
    const { page } = await signedIn();
    await page.setViewportSize({ width: 820, height: 1180 });
    const card = robotCard(page, move.intentDigest);
    const reasons = await card.locator('dd ul li').allTextContents();
    t.same(
      reasons.slice(0, 2),
      ['torque\\u202e)egral(', 'a\\u200bb'],
      'the bidi override and zero-width space show as escapes',
    );
    t.notOk(
      await page.evaluate('/[\\u202e\\u200b]/.test(document.body.textContent)'),
      'no invisible character reaches the page',
    );
    t.equal(await card.locator('img').count(), 0, 'markup stays text');
    t.ok(
      await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'),
      'a 500-character word does not widen the page',
    );
    const button = (await card.getByRole('button', { name: /^Sign consent/ }).boundingBox())!;
    const box = (await card.boundingBox())!;
    t.ok(button.x + button.width <= box.x + box.width, 'the Sign button stays inside its card');
    await page.context().close();
  });

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
      await card.locator('.outcome', { hasText: 'already granted' }).waitFor();
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
    'an unreachable cloud, a failing queue check and a revoked key are said plainly',
    async (t) => {
      const page = await (await browser.newContext()).newPage();
      await page.route('**/api/v1/keys', (route) => route.abort('connectionrefused'), { times: 1 });
      await page.goto(`${base}/console`);
      await page.getByLabel('Operator or auditor API key').fill(cloud.a.keys.operator);
      await page.getByRole('button', { name: 'Sign in' }).click();
      t.match(
        await page.getByRole('alert').textContent(),
        /^Cannot sign in: GET \/api\/v1\/keys: the cloud did not answer/,
      );

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
