/**
 * The live view when the network drops without a reset, in a real Chromium against a real in-process cloud:
 * the stream's connection goes to a server that answers the headers and then says nothing, not even the
 * cloud's 15 s keepalive. The view must not keep saying "connected" (no STOP could reach it): after
 * SILENCE_LIMIT_MS (and not before) it says the connection is lost, reconnects, and a verdict shipped then
 * arrives.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { launchChromium, skipWithoutChromium } from '../../../scripts/test/chromium.js';
import { SILENCE_LIMIT_MS } from '../../console/src/live-view.js';
import { bearer, testCloud } from '../helpers/cloud-app.js';
import { edgeChain } from '../helpers/edge-records.js';
import { testRobot } from '../helpers/fleet.js';

const missing = skipWithoutChromium(t);
t.test('the live view notices a silent stream', { skip: missing ?? false, timeout: 60_000 }, run);

async function run(t: Test): Promise<void> {
  const cloud = await testCloud(t);
  const base = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
  // answers like the live stream, then goes silent: what a connection lost without a reset looks like
  const held: ServerResponse[] = [];
  const silent = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(': pentagate live view of every robot\n\n');
    held.push(res);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const res of held) res.destroy();
    silent.close();
  });
  const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;

  const browser = await launchChromium(t);
  const page = await (await browser.newContext()).newPage();
  // The page's timers run on Playwright's clock, so the 40 s of silence pass in a moment and the test can
  // check both sides of the limit exactly.
  await page.clock.install();
  await page.route('**/api/v1/fleet/live', (route) => route.continue({ url: silentUrl }), { times: 1 });
  await page.goto(`${base}/console#live`);
  await page.getByLabel('Operator or auditor API key').fill(cloud.a.keys.operator);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#live-state', { hasText: 'connected' }).waitFor();
  t.equal(held.length, 1, 'the stream went to the silent server');
  await page.clock.fastForward(SILENCE_LIMIT_MS - 1_000);
  t.match(
    await page.locator('#live-state').textContent(),
    /^connected/,
    'still connected 1 s before the limit',
  );
  await page.clock.fastForward(1_500);
  await page.locator('#live-state', { hasText: 'not even a keepalive' }).waitFor();
  t.match(
    await page.locator('#live-state').textContent(),
    /the connection is taken for lost\); reconnecting in 1 s/,
  );
  await page.clock.fastForward(1_000);
  await page.locator('#live-state', { hasText: /^connected/ }).waitFor({ timeout: 10_000 });
  const shipped = await cloud.app.inject({
    method: 'POST',
    url: '/api/v1/fleet/robots/arm-1/records',
    headers: bearer(edgeKey),
    payload: { records: edgeChain('arm-1', 1, Date.now()) },
  });
  t.equal(shipped.statusCode, 200, shipped.body);
  await page.locator('section[data-robot="arm-1"] tr.live-verdict').waitFor();
  t.pass('a verdict shipped after the reconnection arrives');
}
