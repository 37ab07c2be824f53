/**
 * The operator console end to end with everything real: `pentagate cloud serve` (a child process, robot
 * registered through the CLI), `pentagate edge run --cloud …` (a child process with its embedded broker), the
 * simulated robot and its motor controller, and the console in a real Chromium. One operator signs in twice
 * (two tabs): in one they approve the robot's heavy lift — the page makes and enrols its own non-extractable
 * key at that first signature and signs the consent there; the cloud only relays it over the link the edge
 * opened — and the simulated robot performs the lift; in the other they watch the robot's verdicts live and
 * see the signed STOP appear, with its failing vertex, while the run is still going, when a person walks in.
 */
import { join } from 'node:path';
import { jcsDigestHex } from '@pentagate/crypto';
import type { CliIo, Intent } from '@pentagate/protocol';
import type { Page } from 'playwright-core';
import t from 'tap';
import { launchChromium, skipWithoutChromium } from '../../../scripts/test/chromium.js';
import { SCENARIO_DIR } from '../../src/cli/scenario-paths.js';
import { runScenario } from '../../src/runner/scenario-runner.js';
import { DEFAULT_TIMING_FLOOR_MS, withTimingFloor } from '../../src/runner/timing-floor.js';
import { loadScenario } from '../../src/scenarios/load-scenario.js';
import { auditEventsOfType, cloudLinkedCell } from './fleet-helpers.js';

// Three `pentagate` processes and a browser: cold starts on a loaded 2-core machine.
t.setTimeout(400_000);

/** How long a person takes, at most, to see the move in the queue and sign it (the run waits for them). */
const OPERATOR_MS = 15_000;

const missing = skipWithoutChromium(t);
t.test(
  'an operator approves a robot move in the console and watches its STOP live',
  { skip: missing ?? false },
  async (t) => {
    // The demo loop: the arm works, a visitor walks in (signed STOP), leaves, and a heavy lift waits for
    // consent (the profile's 30 s wait). The run goes on long enough for a person in a browser to sign.
    const demo = loadScenario(join(SCENARIO_DIR, 'demo-cell.yaml'));
    const loaded = {
      ...demo,
      scenario: { ...demo.scenario, durationMs: demo.scenario.durationMs + OPERATOR_MS },
    };
    const profile = withTimingFloor(loaded.profile, DEFAULT_TIMING_FLOOR_MS);
    const robotId = profile.robotId;
    const io: CliIo = { out: () => {}, err: () => {} };
    const { credentials, cloud, cell } = await cloudLinkedCell(t, profile, 'console-e2e', io);

    const browser = await launchChromium(t);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const signIn = async (view: string): Promise<Page> => {
      const page = await context.newPage();
      await page.goto(`${cloud.url}/console${view}`);
      await page.getByLabel('Operator or auditor API key').fill(cloud.registration.operatorKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
      return page;
    };
    const approvals = await signIn('');
    const live = await signIn('');
    await live.getByRole('button', { name: 'Live' }).click();
    await live.locator('#live-state', { hasText: 'connected' }).waitFor();
    const stopRow = live
      .locator(`section[data-robot="${robotId}"] tr.live-verdict`, { hasText: 'stopped' })
      .first();
    const stopSeen = stopRow.waitFor({ timeout: 120_000 }).then(() => Date.now());
    stopSeen.catch(() => {});

    // The person at the console: when the run's operator would consent, they look for the move in the
    // queue (Refresh, as a person would after the "queue changed" note) and sign it in the page. The token
    // the scenario's own simulated operator signed is not used: only the browser's signature reaches the edge.
    const signedInPage: string[] = [];
    const relayConsent = async (_simulatedToken: unknown, intent: Intent): Promise<'relayed'> => {
      const digest = jcsDigestHex(intent);
      const card = approvals.locator(`section.robot-consent[data-intent-digest="${digest}"]`);
      const deadline = Date.now() + OPERATOR_MS;
      while ((await card.count()) === 0) {
        if (Date.now() > deadline)
          throw new Error(`intent ${intent.intentId} never appeared in the console's queue`);
        await approvals.getByRole('button', { name: 'Refresh' }).click();
        await approvals.waitForTimeout(250);
      }
      signedInPage.push((await card.textContent()) ?? '');
      await card.getByRole('button', { name: /^Sign consent/ }).click();
      await card.locator('.outcome', { hasText: /relayed \(audit entry \d+\)/ }).waitFor();
      await approvals.locator('#status', { hasText: /relayed \(audit entry \d+\)/ }).waitFor();
      return 'relayed';
    };

    const result = await runScenario(loaded, { prepared: { credentials, cell }, relayConsent });
    const runEndedAt = Date.now();
    if (!result.passed) t.comment(JSON.stringify(result.trace.events), cell.log().slice(-4000));
    t.ok(
      result.passed,
      `the demo loop passes every expectation (pick, place, lift executed; STOP while the person is in) ${result.expectations
        .filter((e) => !e.ok)
        .map((e) => `${e.name}: ${e.detail}`)
        .join('; ')}`,
    );
    t.equal(signedInPage.length, 1, 'the operator signed one move in the page');
    t.match(signedInPage[0], /heavy-lift/, 'the card says what waits: the move class');
    t.match(signedInPage[0], /N·m against threshold/, 'and the peak torque against the threshold');
    const outcomes = result.trace.verdicts.map((v) => v.verdict.outcome);
    t.ok(outcomes.includes('awaiting-consent'), 'the lift waited for consent');
    t.ok(
      result.trace.controller.some(
        (c) => c.kind === 'accepted' && c.command.intentId === 'lift' && c.command.setpoints.kind !== 'stop',
      ),
      'the simulated robot performed the lift the browser approved',
    );
    t.notOk(
      result.trace.events.some((e) => /consent topic/.test(e.detail)),
      'the consent went through the cloud, not the consent topic',
    );

    // Live: the STOP row appeared while the run was still going (the person walks in at 1.3–1.7 s of a
    // ~21 s run), with its failing vertex, without a reload.
    const seenAt = await stopSeen;
    t.ok(seenAt < runEndedAt, `the STOP appeared live, ${runEndedAt - seenAt} ms before the run ended`);
    t.match(await stopRow.textContent(), /RISK\.HUMAN_IN_RADIUS/, 'with the failing vertex (RISK)');
    const rows = live.locator(`section[data-robot="${robotId}"] tr.live-verdict`);
    await rows.filter({ hasText: 'lift' }).filter({ hasText: 'signed' }).first().waitFor();
    t.pass('the lift, signed after the consent, appears live too');

    // The cloud's audit log: the consent was signed by the browser's key, enrolled for this operator.
    const grants = await auditEventsOfType(cloud, 'consent.grant');
    t.equal(grants.length, 1, 'one grant relayed');
    t.not(
      grants[0]?.actor,
      cloud.registration.operatorId,
      'not the simulated operator: the browser signed it',
    );
  },
);
