/**
 * The operator console in a real Chromium (Debian `chromium`, playwright-core) against a real in-process cloud
 * listening on a port: sign in; approve a REQUIRE_HUMAN proposal and the agent's execute succeeds; veto a held
 * one and execute is refused; sign a robot's consent in the page and the edge receives a token that verifies
 * under the key the browser enrolled; live verdicts (a STOP) appear without reload; an audit entry verifies in
 * the page and a tampered inclusion proof does not. One browser and one server for the file.
 * PENTAGATE_UPDATE_SCREENSHOTS=1 writes cloud/docs/console-*.png (linked from cloud/README.md).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { dsseVerifyStatement, TrustStore } from '@pentagate/crypto';
import { ConsentStatementSchema, type EdgeAuditRecord, PAYLOAD_TYPES } from '@pentagate/protocol';
import { verifyConsentToken } from '@pentagate/verifier';
import t, { type Test } from 'tap';
import { launchChromium, skipWithoutChromium } from '../../../scripts/test/chromium.js';
import { CONSOLE_CSP } from '../../src/console/register-console.js';
import { bearer, testCloud } from '../helpers/cloud-app.js';
import { consentRequestFor, liftIntent } from '../helpers/consent.js';
import { digestOf as recordDigest, edgeChain } from '../helpers/edge-records.js';
import { testRobot } from '../helpers/fleet.js';
import { digestOf, ledgerWrite, policyUpdate } from '../kernel/kernel-helpers.js';

const SCREENSHOTS = process.env.PENTAGATE_UPDATE_SCREENSHOTS === '1';
const DOCS = join(import.meta.dirname, '..', '..', 'docs');

const missing = skipWithoutChromium(t);
t.test('the operator console in Chromium', { skip: missing ?? false }, run);

async function run(t: Test): Promise<void> {
  // The server's clock runs ahead only while the test checks what a veto leaves after the hold ends.
  let aheadMs = 0;
  const cloud = await testCloud(t, {
    nowMs: () => Date.now() + aheadMs,
    kernel: { policyUpdateHoldMs: 60_000, expirySweepMs: 0 },
  });
  const base = await cloud.app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await launchChromium(t);
  const inject = (method: 'GET' | 'POST', key: string, url: string, payload?: object) =>
    cloud.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
  const shoot = async (page: import('playwright-core').Page, name: string) => {
    if (!SCREENSHOTS) return;
    mkdirSync(DOCS, { recursive: true });
    await page.screenshot({ path: join(DOCS, `console-${name}.png`), fullPage: true });
  };

  // What waits for the operator: two kernel proposals and one robot move.
  const needsHuman = ledgerWrite(20, 'billing-bot', {
    context: { agentId: 'billing-bot', confidenceScore: 0.1 },
  });
  const human = (await inject('POST', cloud.a.keys.agent, '/api/v1/kernel/authorize', needsHuman)).json();
  t.equal(human.status, 'REQUIRE_HUMAN');
  const heldAction = policyUpdate();
  const held = (await inject('POST', cloud.a.keys.agent, '/api/v1/kernel/authorize', heldAction)).json();
  t.equal(held.status, 'HELD_FOR_VETO');
  const edgeKey = await testRobot(cloud, cloud.a, 'arm-1');
  const consentRequest = consentRequestFor(liftIntent('arm-1'), Date.now(), 120_000);
  t.equal(
    (await inject('POST', edgeKey, '/api/v1/fleet/robots/arm-1/consent-requests', consentRequest)).statusCode,
    200,
  );

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const requestedUrls: string[] = [];
  page.on('request', (r) => requestedUrls.push(r.url()));

  await t.test('the page is served with a strict CSP and signs in with a key kept out of URLs', async (t) => {
    const res = await page.goto(`${base}/console`);
    t.equal(res?.status(), 200);
    t.equal(res?.headers()['content-security-policy'], CONSOLE_CSP);
    await shoot(page, 'sign-in');
    await page.getByLabel('Operator or auditor API key').fill(cloud.a.keys.operator);
    await page.getByRole('button', { name: 'Sign in' }).press('Enter');
    await page.locator('section.kernel-item').first().waitFor();
    t.equal(await page.evaluate("sessionStorage.getItem('pentagate.apiKey')"), cloud.a.keys.operator);
    t.notOk(
      requestedUrls.some((u) => u.includes(cloud.a.keys.operator)),
      'the key never appears in a requested URL',
    );
    t.ok(
      requestedUrls.every((u) => u.startsWith(base)),
      'nothing is fetched from another origin',
    );
  });

  await t.test('approving a REQUIRE_HUMAN proposal lets the agent execute it', async (t) => {
    const card = page.locator(`section.kernel-item[data-id="${human.proposalId}"]`);
    t.match(await card.textContent(), digestOf(needsHuman), 'the card shows the action digest');
    t.match(await card.textContent(), /expires in \d+:\d\d/, 'and a countdown to expiry');
    t.match(
      await card.textContent(),
      /Proposed bykey key_\w+, not bound to an agent: the agent name above is its claim/,
      'and which key proposed it, flagged when the key is not bound to the agent it names',
    );
    t.match(await card.locator('details').getAttribute('open'), '', 'the action as proposed is shown open');
    const heldCard = page.locator(`section.kernel-item[data-id="${held.proposalId}"]`);
    t.match(
      await heldCard.textContent(),
      /executes in \d+:\d\d/,
      'a held proposal counts down to its hold end',
    );
    await shoot(page, 'approvals');
    await page.setViewportSize({ width: 820, height: 1180 });
    t.ok(
      await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'),
      'no sideways scrolling at tablet width (820 px)',
    );
    await shoot(page, 'approvals-tablet');
    await page.setViewportSize({ width: 1280, height: 900 });
    // by keyboard: the control is a labelled button that takes focus and Enter
    await card.getByRole('button', { name: `approve ${needsHuman.type} ${human.proposalId}` }).focus();
    await page.keyboard.press('Enter');
    // the decided card stays in place with its outcome (the queue is redrawn on Refresh)
    await card.locator('.outcome', { hasText: /approved \(audit entry \d+\)/ }).waitFor();
    t.match(await page.locator('#status').textContent(), /approved \(audit entry \d+\)/);
    const executed = await inject('POST', cloud.a.keys.agent, '/api/v1/kernel/execute', {
      proposalId: human.proposalId,
    });
    t.equal(executed.statusCode, 200, executed.body);
  });

  await t.test('a new waiting item is announced without re-rendering, and Refresh shows it', async (t) => {
    const later = (
      await inject(
        'POST',
        cloud.a.keys.agent,
        '/api/v1/kernel/authorize',
        ledgerWrite(30, 'billing-bot', { context: { agentId: 'billing-bot', confidenceScore: 0.1 } }),
      )
    ).json();
    await page.locator('#queue-changed', { hasText: 'The queue changed' }).waitFor();
    t.equal(
      await page.locator(`section.kernel-item[data-id="${later.proposalId}"]`).count(),
      0,
      'not yet shown',
    );
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.locator(`section.kernel-item[data-id="${later.proposalId}"]`).waitFor();
    t.equal(await page.locator('#queue-changed').textContent(), '');
  });

  await t.test('vetoing a held proposal makes its execute refused', async (t) => {
    const card = page.locator(`section.kernel-item[data-id="${held.proposalId}"]`);
    await card.getByRole('button', { name: /^veto/ }).click();
    await card.locator('.outcome', { hasText: /vetoed \(audit entry \d+\)/ }).waitFor();
    aheadMs = 61_000;
    const refused = await inject('POST', cloud.a.keys.agent, '/api/v1/kernel/execute', {
      proposalId: held.proposalId,
    });
    aheadMs = 0;
    t.equal(refused.statusCode, 403, 'refused after the hold ended');
    t.match(refused.json().error.message, /vetoed/);
  });

  await t.test(
    'a robot consent is signed in the page with a non-extractable key and reaches the edge',
    async (t) => {
      const card = page.locator(`section.robot-consent[data-intent-digest="${consentRequest.intentDigest}"]`);
      const text = await card.textContent();
      t.match(text, /140\.0 N·m against threshold 100\.0 N·m, limits 150\.0 \/ 150\.0 N·m/);
      t.equal(await card.locator('svg.path-plot rect.zone').count(), 1, 'the keep-out zone is drawn');
      // the table (z 0 to 0.2 m) lies below the path (z 0.3 m): dashed, and its title says so
      const table = card.locator('svg.path-plot rect.zone.other-height');
      t.equal(await table.count(), 1, 'a zone below the path is drawn dashed');
      t.match(
        await table.locator('title').textContent(),
        /z 0 to 0\.2 m: above or below the path \(z 0\.3 to 0\.3 m\)/,
      );
      t.equal(await card.locator('svg.path-plot circle.point').count(), 2, 'and the two path points');
      await card.getByRole('button', { name: /^Sign consent/ }).click();
      await card.locator('.outcome', { hasText: /relayed \(audit entry \d+\)/ }).waitFor();
      t.match(await page.locator('#status').textContent(), /relayed \(audit entry \d+\)/);
      // evaluated in the page (a string, so this Node-typed file needs no DOM types)
      const extractable = await page.evaluate(`new Promise((resolve, reject) => {
        const open = indexedDB.open('pentagate-console');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('operator-keys').objectStore('operator-keys').getAll();
          all.onsuccess = () => resolve(all.result.map((pair) => pair.privateKey.extractable));
        };
      })`);
      t.same(extractable, [false], 'one key pair kept in IndexedDB, its private key not extractable');

      const relayed = await inject('GET', edgeKey, '/api/v1/fleet/robots/arm-1/consents?waitMs=0');
      t.equal(relayed.statusCode, 200);
      const [token] = relayed.json().tokens;
      t.ok(token, 'the edge takes the token');
      const keys = (await inject('GET', edgeKey, '/api/v1/fleet/robots/arm-1/operator-keys')).json().keys;
      t.equal(keys.length, 1, 'the browser enrolled one key');
      const operatorKeyId = (await cloud.store.listApiKeys(cloud.a.id)).find(
        (k) => k.scope === 'operator',
      )!.id;
      t.equal(keys[0].name, operatorKeyId, 'for the operator who signed in');
      const verified = dsseVerifyStatement(
        token,
        TrustStore.fromDocument({ keys }, 'enrolled operator keys'),
        ConsentStatementSchema,
        { payloadType: PAYLOAD_TYPES.consent },
      );
      const statement = verified.statement;
      t.same(
        [statement.intentDigest, statement.robotId, statement.operatorId, statement.scope],
        [consentRequest.intentDigest, 'arm-1', operatorKeyId, 'high-torque'],
      );
      t.ok(statement.expiresAt - statement.notBefore <= 60_000, 'valid for 60 s at most');
      const asTheEdgeChecks = verifyConsentToken(token, TrustStore.fromDocument({ keys }, 'operator keys'), {
        intent: consentRequest.intent,
        robotId: 'arm-1',
        atMs: Date.now(),
      });
      t.ok(
        asTheEdgeChecks.valid,
        `pentagate verify consent accepts it: ${asTheEdgeChecks.failures.join('; ')}`,
      );
      t.ok(Buffer.from(statement.nonce, 'base64url').length >= 16, 'a nonce of 16+ random bytes');
    },
  );

  await t.test('live verdicts appear per robot without reload, a STOP included', async (t) => {
    await page.getByRole('button', { name: 'Live' }).click();
    await page.locator('#live-state', { hasText: 'connected' }).waitFor();
    const chain = edgeChain('arm-1', 3, Date.now());
    const last = chain[2]!;
    last.verdict = { ...last.verdict, outcome: 'stopped', violations: ['SAFETY.HUMAN_IN_RADIUS'] };
    chain[2] = { ...last, prevDigest: recordDigest(chain[1] as EdgeAuditRecord) };
    const shipped = await inject('POST', edgeKey, '/api/v1/fleet/robots/arm-1/records', { records: chain });
    t.equal(shipped.statusCode, 200, shipped.body);
    const robot = page.locator('section[data-robot="arm-1"]');
    await robot.locator('tr.live-verdict', { hasText: 'stopped' }).waitFor();
    t.equal(await robot.locator('tr.live-verdict').count(), 3);
    t.match(await robot.locator('tr.live-verdict').first().textContent(), /stopped.*SAFETY\.HUMAN_IN_RADIUS/);
    await shoot(page, 'live');

    // one robot: another robot's verdicts stay out of the view
    const otherEdgeKey = await testRobot(cloud, cloud.a, 'arm-2');
    await page.getByLabel('Robot', { exact: true }).selectOption('arm-1');
    await page.locator('#live-state', { hasText: 'connected' }).waitFor();
    const next: EdgeAuditRecord = {
      v: 1,
      index: 3,
      appendedAtMs: Date.now(),
      prevDigest: recordDigest(chain[2] as EdgeAuditRecord),
      verdict: { ...chain[0]!.verdict, intentId: 'intent-3', commandSeq: 4, atMs: Date.now() },
    };
    const other = await inject('POST', otherEdgeKey, '/api/v1/fleet/robots/arm-2/records', {
      records: edgeChain('arm-2', 1, Date.now()),
    });
    t.equal(other.statusCode, 200, other.body);
    t.equal(
      (await inject('POST', edgeKey, '/api/v1/fleet/robots/arm-1/records', { records: [next] })).statusCode,
      200,
    );
    await robot.locator('tr.live-verdict', { hasText: 'intent-3' }).waitFor();
    t.equal(await page.locator('section[data-robot="arm-2"]').count(), 0, 'arm-2 is filtered out');
  });

  await t.test('the live view reconnects after the stream drops', async (t) => {
    // The first connection after this is answered with one event and then closed, like a proxy dropping it.
    const dropped = JSON.stringify({
      type: 'alarm',
      robotId: 'arm-1',
      kind: 'test',
      message: 'before the drop',
      atMs: Date.now(),
    });
    await page.route(
      '**/api/v1/fleet/live**',
      (route) =>
        route.fulfill({
          status: 200,
          contentType: 'text/event-stream',
          body: `event: alarm\ndata: ${dropped}\n\n`,
        }),
      { times: 1 },
    );
    await page.getByRole('button', { name: 'Approvals' }).click();
    await page.getByRole('button', { name: 'Live' }).click();
    const robot = page.locator('section[data-robot="arm-1"]');
    await robot.locator('tr.live-alarm', { hasText: 'before the drop' }).waitFor();
    await page.locator('#live-state', { hasText: 'connected' }).waitFor({ timeout: 10_000 });
    const again: EdgeAuditRecord = {
      v: 1,
      index: 4,
      appendedAtMs: Date.now(),
      prevDigest: (await inject('GET', edgeKey, '/api/v1/fleet/robots/arm-1/ack')).json().headDigest,
      verdict: {
        ...edgeChain('arm-1', 1)[0]!.verdict,
        intentId: 'intent-4',
        commandSeq: 5,
        atMs: Date.now(),
      },
    };
    const shipped = await inject('POST', edgeKey, '/api/v1/fleet/robots/arm-1/records', { records: [again] });
    t.equal(shipped.statusCode, 200, shipped.body);
    await robot.locator('tr.live-verdict', { hasText: 'intent-4' }).waitFor();
    t.pass('a verdict shipped after the reconnection arrives');
  });

  await t.test('an auditor verifies an audit entry in the page; a tampered proof fails', async (t) => {
    const auditor = await (await browser.newContext({ viewport: { width: 1024, height: 1366 } })).newPage();
    await auditor.goto(`${base}/console#audit`);
    await auditor.getByLabel('Operator or auditor API key').fill(cloud.a.keys.auditor);
    await auditor.getByRole('button', { name: 'Sign in' }).click();
    const row = auditor.locator('tbody tr[data-index]').first();
    await row.waitFor();
    const shown = await auditor.locator('tbody tr[data-index]').count();
    const total = (await inject('GET', cloud.a.keys.auditor, '/api/v1/audit/entries?limit=200')).json()
      .entries.length;
    t.ok(total > shown, `more entries (${total}) than one page (${shown})`);
    await auditor.getByRole('button', { name: 'Older entries' }).click();
    await auditor.locator(`tbody tr[data-index]`).nth(shown).waitFor();
    const indexes = await auditor
      .locator('tbody tr[data-index]')
      .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-index'))));
    t.same(
      indexes,
      [...indexes].sort((x, y) => y - x),
      'older entries follow, newest first, none twice',
    );
    t.equal(new Set(indexes).size, indexes.length);
    await row.getByRole('button', { name: /^Verify audit entry/ }).click();
    await row.locator('.verdict').waitFor();
    t.equal(await row.locator('.verdict').textContent(), 'verified', (await row.textContent()) ?? '');
    t.match(await row.textContent(), /reaches the checkpoint root/);
    t.ok(
      await auditor.evaluate('document.documentElement.scrollWidth <= window.innerWidth'),
      'the audit table fits 1024 px',
    );
    t.same(
      await auditor.evaluate(() => {
        // the lines a cell's text takes: the distinct tops of the line boxes of the text nodes in it
        const lineCount = (el: Element) => {
          const tops = new Set<number>();
          const texts = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          for (let text = texts.nextNode(); text; text = texts.nextNode()) {
            const range = document.createRange();
            range.selectNodeContents(text);
            for (const r of range.getClientRects()) tops.add(Math.round(r.top));
          }
          return tops.size;
        };
        const cells = (n: number) => [
          ...document.querySelectorAll(`tbody tr[data-index] td:nth-child(${n})`),
        ];
        const oneLine = [...document.querySelectorAll('thead th'), ...cells(1), ...cells(3), ...cells(5)];
        return [
          ...oneLine.filter((el) => lineCount(el) > 1).map((el) => el.textContent),
          // a time may go under its date, never be broken at a hyphen or a colon
          ...cells(2)
            .filter((el) => lineCount(el) > 2)
            .map((el) => el.textContent),
        ];
      }),
      [],
      'index, type and the Verify buttons take one line, a time at most two, beside a long check result',
    );
    await shoot(auditor, 'audit');

    await auditor.route('**/api/v1/audit/inclusion**', async (route) => {
      const proof = await (await route.fetch()).json();
      const first = Buffer.from(proof.hashes[0], 'base64');
      first[0] = (first[0] ?? 0) ^ 1;
      proof.hashes[0] = first.toString('base64');
      await route.fulfill({ json: proof });
    });
    await row.getByRole('button', { name: /^Verify audit entry/ }).click();
    await row.locator('.verdict', { hasText: 'NOT verified' }).waitFor();
    t.match(await row.textContent(), /does not reach the checkpoint root/);
    await shoot(auditor, 'audit-tampered');

    // an entry listed with other fields than the log holds (here its actor) is not verified either: the row
    // shows the very entry that is hashed and proven
    await auditor.unroute('**/api/v1/audit/inclusion**');
    await auditor.route('**/api/v1/audit/entries**', async (route) => {
      const page = await (await route.fetch()).json();
      page.entries[0].actor = 'verified';
      await route.fulfill({ json: page });
    });
    await auditor.getByRole('button', { name: 'Live' }).click();
    await auditor.getByRole('button', { name: 'Audit' }).click();
    const relabelled = auditor.locator('tbody tr[data-index]').first();
    await relabelled.locator('td', { hasText: /^verified$/ }).waitFor();
    await relabelled.getByRole('button', { name: /^Verify audit entry/ }).click();
    await relabelled.locator('.verdict', { hasText: 'NOT verified' }).waitFor();
    t.match(await relabelled.textContent(), /does not reach the checkpoint root/);
  });
}
