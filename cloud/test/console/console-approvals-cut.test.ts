/**
 * More agent actions wait than the approvals list holds (the cloud lists the oldest `approvalsListLimit`): the
 * console says so above the cards, in a real Chromium against a real in-process cloud. Held proposals run when
 * their hold ends unless vetoed, so the ones not shown must not pass for none.
 */
import t, { type Test } from 'tap';
import { skipWithoutChromium } from '../../../scripts/test/chromium.js';
import { consoleBench } from '../helpers/console-bench.js';

const missing = skipWithoutChromium(t);
t.test('a cut approvals list says more are waiting', { skip: missing ?? false }, run);

async function run(t: Test): Promise<void> {
  const { needsHuman, signedIn } = await consoleBench(t, { approvalsListLimit: 2 });
  for (let i = 0; i < 3; i++) await needsHuman();
  const { page } = await signedIn();
  await page.getByRole('heading', { name: 'Agent actions (2 shown, more waiting)' }).waitFor();
  const alert = page.getByRole('alert');
  t.match(
    (await alert.textContent()) ?? '',
    /More agent actions wait than the 2 shown \(the oldest\)/,
    'the operator is told the list is cut',
  );
  t.equal(await page.locator('section.kernel-item').count(), 2);
  await page.context().close();
}
