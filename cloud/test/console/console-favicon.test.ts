/**
 * Opening the console makes no request the cloud refuses: browsers ask for /favicon.ico unless the page names
 * an icon, and each such 404 is a keyless refusal the cloud records in its audit log (the first of each
 * address's window at once), so every operator's visit wrote a refusal of its own. The page names an inline
 * empty icon instead. Real Chromium against a real in-process cloud.
 */
import t, { type Test } from 'tap';
import { launchChromium, skipWithoutChromium } from '../../../scripts/test/chromium.js';
import { testCloud } from '../helpers/cloud-app.js';

const missing = skipWithoutChromium(t);
t.test('opening the console writes no refusal', { skip: missing ?? false }, run);

async function run(t: Test): Promise<void> {
  const cloud = await testCloud(t);
  const base = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await launchChromium(t);
  const page = await browser.newPage();
  const sizeBefore = await cloud.store.auditSize();
  await page.goto(`${base}/console`);
  await page.getByLabel('Operator or auditor API key').waitFor();
  await page.waitForTimeout(1000);
  const written = await cloud.store.auditEntries(sizeBefore, await cloud.store.auditSize());
  t.same(
    written.map((e) => e.entry.type),
    [],
    'no refusal was written to the audit log',
  );
  await page.close();
}
