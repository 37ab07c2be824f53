/**
 * More agent actions wait than one page of the approvals list holds (`approvalsListLimit`): the console says so
 * above the cards, in a real Chromium against a real in-process cloud. Held proposals run when their hold ends
 * unless vetoed, so the ones not shown must not pass for none; the cloud lists them first, so a flood of other
 * proposals cannot push one off the first page (outside review F4), and "Next page" reaches the rest.
 */
import t, { type Test } from 'tap';
import { skipWithoutChromium } from '../../../scripts/test/chromium.js';
import { consoleBench } from '../helpers/console-bench.js';
import { policyUpdate } from '../kernel/kernel-helpers.js';

const missing = skipWithoutChromium(t);
t.test('a cut approvals list says more are waiting', { skip: missing ?? false }, run);
t.test(
  'a held proposal made after a flood is the first card; Next page shows the rest',
  { skip: missing ?? false },
  flooded,
);

async function run(t: Test): Promise<void> {
  const { needsHuman, signedIn } = await consoleBench(t, { approvalsListLimit: 2 });
  for (let i = 0; i < 3; i++) await needsHuman();
  const { page } = await signedIn();
  await page.getByRole('heading', { name: 'Agent actions (2 shown, more waiting)' }).waitFor();
  const alert = page.getByRole('alert');
  t.match(
    (await alert.textContent()) ?? '',
    /More agent actions wait than the 2 shown \(held ones first, then the oldest\)/,
    'the operator is told the list is cut',
  );
  t.equal(await page.locator('section.kernel-item').count(), 2);
  await page.context().close();
}

async function flooded(t: Test): Promise<void> {
  const { cloud, inject, needsHuman, signedIn } = await consoleBench(t, { approvalsListLimit: 3 });
  const waiting: string[] = [];
  for (let i = 0; i < 4; i++) waiting.push(await needsHuman());
  const held = (await inject('POST', cloud.a.keys.agent, '/api/v1/kernel/authorize', policyUpdate())).json();
  t.equal(held.status, 'HELD_FOR_VETO');
  const { page } = await signedIn();
  await page.getByRole('heading', { name: 'Agent actions (3 shown, more waiting)' }).waitFor();
  const ids = () =>
    page.locator('section.kernel-item').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-id')));
  t.same(await ids(), [held.proposalId, ...waiting.slice(0, 2)], 'the held proposal is the first card');
  t.match(
    (await page.locator('section.kernel-item').first().getByRole('heading').textContent()) ?? '',
    /^Held for veto: policy:update/,
  );
  await page.getByRole('button', { name: 'Next page' }).click();
  await page.getByRole('heading', { name: 'Agent actions (2 after earlier pages)' }).waitFor();
  t.same(await ids(), waiting.slice(2), 'the next page holds the rest, each once');
  t.equal(await page.getByRole('button', { name: 'Next page' }).count(), 0, 'and no page after it');
  await page.getByRole('button', { name: 'First page' }).click();
  await page.getByRole('heading', { name: 'Agent actions (3 shown, more waiting)' }).waitFor();
  await page.context().close();
}
