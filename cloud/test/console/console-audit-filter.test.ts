/**
 * The console's audit filters in a real Chromium (Debian `chromium`, playwright-core) against an in-process
 * cloud on a port: an auditor types an agent (or a proposal) and the table holds exactly that agent's entries
 * as the route returns them, newest first; "Older entries" continues the filtered list; "Clear filters" brings
 * back every entry; a filter that matches nothing says so, and a malformed one shows the cloud's refusal.
 */
import t, { type Test } from 'tap';
import { launchChromium, skipWithoutChromium } from '../../../scripts/test/chromium.js';
import { bearer, testCloud } from '../helpers/cloud-app.js';
import { ledgerWrite } from '../kernel/kernel-helpers.js';

const missing = skipWithoutChromium(t);
t.test('the console filters audit entries', { skip: missing ?? false }, run);

async function run(t: Test): Promise<void> {
  const cloud = await testCloud(t);
  const base = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await launchChromium(t);
  const proposals: string[] = [];
  // 22 proposals of ops-bot: more entries than a page (20) holds, so paging is exercised.
  for (let i = 0; i < 22; i++) {
    for (const agent of ['billing-bot', 'ops-bot']) {
      const res = await cloud.app.inject({
        method: 'POST',
        url: '/api/v1/kernel/authorize',
        headers: bearer(cloud.a.keys.agent),
        payload: ledgerWrite(10 + i, agent),
      });
      t.equal(res.statusCode, 200);
      if (agent === 'ops-bot') proposals.push((res.json() as { proposalId: string }).proposalId);
    }
  }
  const routeIndexes = async (query: string) =>
    (
      (
        await cloud.app.inject({
          method: 'GET',
          url: `/api/v1/audit/entries?limit=200${query}`,
          headers: bearer(cloud.a.keys.auditor),
        })
      ).json() as { entries: { index: number }[] }
    ).entries.map((e) => e.index);
  const opsBot = await routeIndexes('&agentId=ops-bot');
  const everything = await routeIndexes('');
  t.ok(opsBot.length > 20 && opsBot.length < everything.length, 'more than a page, fewer than all');

  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(`${base}/console#audit`);
  await page.getByLabel('Operator or auditor API key').fill(cloud.a.keys.auditor);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const rows = page.locator('tbody tr[data-index]');
  await rows.first().waitFor();
  const shownIndexes = async () =>
    (await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-index'))))) as number[];
  t.same(await shownIndexes(), everything.slice(0, 20), 'unfiltered: the newest 20');

  await page.getByLabel('Agent').fill('ops-bot');
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await page.locator('#audit-summary', { hasText: '(filtered)' }).waitFor();
  t.same(await shownIndexes(), opsBot.slice(0, 20), "ops-bot's newest 20, as the route lists them");
  await page.getByRole('button', { name: 'Older entries' }).click();
  await rows.nth(opsBot.length - 1).waitFor();
  t.same(await shownIndexes(), opsBot, 'older entries continue the filtered list to its end');
  t.ok(await page.locator('#older-entries').isHidden(), 'and the button goes when nothing is left');

  await page.getByLabel('Agent').fill('');
  await page.getByLabel('Proposal or decision').fill(proposals[3]!);
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  const oneProposal = await routeIndexes(`&proposalId=${proposals[3]}`);
  t.ok(oneProposal.length >= 1);
  await page.waitForFunction(
    (n) => document.querySelectorAll('tbody tr[data-index]').length === n,
    oneProposal.length,
  );
  t.same(await shownIndexes(), oneProposal, "one proposal's entries");

  // a type typed with a capital is the same lower-case type, not a refusal
  await page.getByLabel('Proposal or decision').fill('');
  await page.getByLabel('Type').fill('Decision');
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  const decisions = await routeIndexes('&type=decision');
  await page.waitForFunction(
    (first) => document.querySelector('tbody tr[data-index]')?.getAttribute('data-index') === String(first),
    decisions[0],
  );
  t.same(await shownIndexes(), decisions.slice(0, 20), 'Type "Decision" lists the decisions');
  await page.getByLabel('Type').fill('');

  await page.getByLabel('Agent').fill('nobody-bot');
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await page.locator('#audit-summary', { hasText: 'No audit entry matches these filters.' }).waitFor();
  t.equal(await rows.count(), 0, 'no rows for an agent with no entries');

  await page.getByLabel('Agent').fill('x'.repeat(200));
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await page.locator('#audit-summary', { hasText: 'agentId' }).waitFor();
  t.pass(
    `an agent name over 128 characters shows the refusal: ${await page.locator('#audit-summary').textContent()}`,
  );

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.waitForFunction(
    () => !document.querySelector('#audit-summary')?.textContent?.includes('agentId'),
  );
  await rows.nth(19).waitFor();
  // (the log has grown since the first page: the malformed filter's refusal is audited too)
  t.same(await shownIndexes(), (await routeIndexes('')).slice(0, 20), 'cleared: every entry again');
  t.equal(await page.getByLabel('Agent').inputValue(), '', 'and the fields are empty');
}
