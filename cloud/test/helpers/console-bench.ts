/**
 * The console's browser tests' bench: a real in-process cloud on a port with robot arm-1, Debian Chromium, and
 * what the tests make and read through them — proposals needing a human, robot moves waiting for consent, a
 * new tab signed in with the decisions (approve, deny, veto, grant POSTs) it sends.
 */
import type { Page, Request } from 'playwright-core';
import type { Test } from 'tap';
import { launchChromium } from '../../../scripts/test/chromium.js';
import type { KernelSettings } from '../../src/kernel/kernel-settings.js';
import { ledgerWrite } from '../kernel/kernel-helpers.js';
import { bearer, testCloud } from './cloud-app.js';
import { consentRequestFor, liftIntent } from './consent.js';
import { testRobot } from './fleet.js';

export async function consoleBench(t: Test, kernel: Partial<KernelSettings> = {}) {
  const cloud = await testCloud(t, { kernel: { expirySweepMs: 0, ...kernel } });
  const base = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await launchChromium(t);
  const inject = (method: 'GET' | 'POST', key: string, url: string, payload?: object) =>
    cloud.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
  const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
  /** A REQUIRE_HUMAN kernel proposal (an agent unsure of itself); its id. */
  const needsHuman = async () => {
    const action = ledgerWrite(20, 'billing-bot', {
      context: { agentId: 'billing-bot', confidenceScore: 0.1 },
    });
    const out = (await inject('POST', cloud.a.keys.agent, '/api/v1/kernel/authorize', action)).json();
    t.equal(out.status, 'REQUIRE_HUMAN');
    return out.proposalId as string;
  };
  /** A heavy lift of arm-1 waiting for consent for `waitMs`, its request bent by `bend` before it is posted. */
  const robotMove = async (waitMs = 120_000, bend: (r: Record<string, unknown>) => void = () => {}) => {
    const request = consentRequestFor(liftIntent('arm-1'), Date.now(), waitMs);
    bend(request as unknown as Record<string, unknown>);
    const posted = await inject('POST', edgeKey, '/api/v1/fleet/robots/arm-1/consent-requests', request);
    t.equal(posted.statusCode, 200, posted.body);
    return request;
  };
  const pending = async () => (await inject('GET', cloud.a.keys.operator, '/api/v1/approvals')).json();
  /**
   * A new browser context is a new device: its first signature makes and enrols a new consent key, which the
   * operator's own API key may not put in place of the key an earlier context enrolled. So, as an admin would
   * for an operator on a new machine, the tenant's operator consent key is retired first.
   */
  const signedIn = async (key = cloud.a.keys.operator) => {
    if (key === cloud.a.keys.operator) {
      const retired = await cloud.app.inject({
        method: 'DELETE',
        url: `/api/v1/fleet/operator-key/${cloud.a.keyIds.operator}`,
        headers: bearer(cloud.a.keys.admin),
      });
      t.ok([200, 404].includes(retired.statusCode), retired.body);
    }
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
  return { cloud, base, browser, inject, edgeKey, needsHuman, robotMove, pending, signedIn, robotCard };
}
