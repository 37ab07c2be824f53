/**
 * What the operator consents to in the console, in a real Chromium against a real in-process cloud, when the
 * operator slips or agents and robots misbehave: a double click or a held Enter decides once and never lands on
 * the next card; a card past its deadline sends and signs nothing; a robot card names what the intent itself
 * says (a robot's request cannot relabel the move) and is not signable when its intent does not hash to the
 * digest to sign; invisible characters and long words from agents and robots are shown, not obeyed.
 * (console-failures.test.ts: what the operator sees when the network or the cloud fails.)
 */
import type { Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { skipWithoutChromium } from '../../../scripts/test/chromium.js';
import { consoleBench } from '../helpers/console-bench.js';

const missing = skipWithoutChromium(t);
t.test('decisions in the operator console', { skip: missing ?? false }, run);

async function run(t: Test): Promise<void> {
  const { needsHuman, robotMove, pending, signedIn, robotCard, inject, edgeKey } = await consoleBench(t);
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
    'Deny signs a denial in the page; the edge takes it and the move leaves the queue',
    async (t) => {
      const move = await robotMove();
      const { page, decisions } = await signedIn();
      const card = robotCard(page, move.intentDigest);
      await card.getByRole('button', { name: `Deny ${move.intent.intentId} on arm-1` }).click();
      await card
        .locator('.outcome', {
          hasText: /^Denial of .* relayed: the edge vetoes the move \(audit entry \d+\)/,
        })
        .waitFor();
      t.same(
        decisions.map((r) => new URL(r.url()).pathname),
        [`/api/v1/fleet/robots/arm-1/consent-requests/${move.intentDigest}/deny`],
        'one denial sent, to the deny route',
      );
      const token = decisions[0]!.postDataJSON().token as { payload: string };
      const statement = JSON.parse(Buffer.from(token.payload, 'base64').toString('utf8'));
      t.equal(statement.decision, 'deny', 'the page signed a denial');
      t.equal(statement.intentDigest, move.intentDigest, 'of the move on the card');
      t.ok(
        await card.getByRole('button', { name: /^Sign consent/ }).isDisabled(),
        'nothing more to sign on it',
      );
      t.notOk(
        (await pending()).robotConsents.some(
          (c: { intentDigest: string }) => c.intentDigest === move.intentDigest,
        ),
        'the move left the queue',
      );
      const taken = await inject('GET', edgeKey, '/api/v1/fleet/robots/arm-1/consents?waitMs=0');
      t.ok(
        taken.json().tokens.some((k: { payload: string }) => k.payload === token.payload),
        'the edge takes the denial as signed',
      );
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
    await card.locator('.countdown', { hasText: 'vetoed by the edge' }).waitFor();
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

  /** What a cloud (or anything on the way) that wants a heavy move consented to could show instead. */
  type ServedRequest = {
    intent: { points: { effortsNm?: number[] }[] };
    peakEffortNm: number;
    reasons: string[];
  };
  const rewrites: [string, (request: ServedRequest) => void, RegExp][] = [
    [
      'a card whose intent does not hash to the digest to sign cannot be signed',
      (request) => {
        request.intent.points[1]!.effortsNm = [40, 30]; // a light move
      },
      /Not signable: the intent shown hashes to [0-9a-f]{64}/,
    ],
    [
      // the cloud refuses such a request itself (consent-relay.test.ts)
      'a card whose request shows less torque than its intent declares cannot be signed',
      (request) => {
        request.peakEffortNm = 14;
        request.reasons = ['routine reposition'];
      },
      /Not signable: the request understates the move's torque: peakEffortNm 14 is below the 140 N·m the intent itself declares/,
    ],
  ];
  for (const [name, rewrite, refusal] of rewrites) {
    await t.test(name, async (t) => {
      const move = await robotMove();
      const { page, decisions } = await signedIn();
      await page.route('**/api/v1/approvals', async (route) => {
        const queue = await (await route.fetch()).json();
        for (const c of queue.robotConsents) if (c.intentDigest === move.intentDigest) rewrite(c.request);
        await route.fulfill({ json: queue });
      });
      await page.getByRole('button', { name: 'Refresh' }).click();
      const card = robotCard(page, move.intentDigest);
      await card.getByRole('alert').waitFor();
      t.match(await card.getByRole('alert').textContent(), refusal);
      t.equal(await card.getByRole('button', { name: /^Sign consent/ }).count(), 0, 'no Sign button');
      t.equal(decisions.length, 0);
      await page.context().close();
    });
  }

  await t.test('invisible characters and long words from robots are shown, not obeyed', async (t) => {
    const long = 'x'.repeat(500);
    const move = await robotMove(120_000, (r) => {
      r.reasons = [
        `torque\u202E)egral(`,
        `a\u200Bb`,
        long,
        '<img src=x onerror="document.title=1">',
        // blanks that are letters or symbols, and a space that is not U+0020: each could pad or fake text
        `safe\u3164\u115F\u2800 verified\u00A0by\u2003supervisor`,
      ];
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
    t.equal(
      reasons[4],
      'safe\\u3164\\u115f\\u2800 verified\\u00a0by\\u2003supervisor',
      'Hangul fillers, the Braille blank and other spaces show as escapes',
    );
    t.notOk(
      await page.evaluate('/[\\u202e\\u200b\\u3164\\u2800\\u2003]/.test(document.body.textContent)'),
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
}
