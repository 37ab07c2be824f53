/**
 * An agent in a browser page on another origin (specification §1 item 4: the client needs only fetch) in a
 * real Chromium: the page, served by a second HTTP server (another port, so another origin), loads the built
 * GovClient (shared/client/dist) and calls kernel authorize with it, and registers and proposes with plain
 * fetch. With its origin allowed (`corsOrigins`) every call works and the answers' headers are readable;
 * from another origin, and from any origin when no CORS origin is configured, the browser blocks them.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { launchChromium, skipWithoutChromium } from '../../../scripts/test/chromium.js';
import { registration, testCloud, transferCall } from '../helpers/cloud-app.js';
import { ledgerWrite } from '../kernel/kernel-helpers.js';

const CLIENT_DIST = join(import.meta.dirname, '..', '..', '..', 'shared', 'client', 'dist');

/** Serves a blank page and the built client under /client/ on a free port of 127.0.0.1. */
async function pageServer(t: Test): Promise<number> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://page').pathname;
    const file = /^\/client\/([a-z-]+\.js)$/.exec(path)?.[1];
    if (path === '/') {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>agent</title>');
      return;
    }
    if (file === undefined) {
      res.writeHead(404).end();
      return;
    }
    readFile(join(CLIENT_DIST, file)).then(
      (body) => res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

interface AgentRun {
  authorize: { status?: string; error?: string };
  register: { status?: number; error?: string };
  propose: { status?: number; decisionId?: string | null; error?: string };
  unauthenticated: { status?: number; code?: string; error?: string };
}

/** What the page's agent sees calling `cloudUrl` (runs in the browser). */
async function runAgent(
  page: Page,
  args: {
    cloudUrl: string;
    apiKey: string;
    action: unknown;
    registration: unknown;
    proposal: (lobe: string) => Record<string, unknown>;
  },
): Promise<AgentRun> {
  return page.evaluate(
    async ({ cloudUrl, apiKey, action, registrationBody, proposalTemplate }) => {
      const failed = (err: unknown) => ({ error: `${(err as Error).name}: ${(err as Error).message}` });
      const clientUrl = '/client/index.js';
      const { GovClient } = await import(clientUrl);
      const gov = new GovClient({ baseUrl: cloudUrl, apiKey, maxRetries: 0 });
      const run: Record<string, unknown> = {};
      try {
        run.authorize = { status: (await gov.authorize(action)).status };
      } catch (err) {
        run.authorize = failed(err);
      }
      const post = (path: string, body: unknown, key = apiKey) =>
        fetch(`${cloudUrl}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      let lobe = '';
      try {
        const res = await post('/api/v1/agentgate/register', registrationBody);
        lobe = (await res.json()).lobe_name;
        run.register = { status: res.status };
      } catch (err) {
        run.register = failed(err);
      }
      try {
        const res = await post('/api/v1/agentgate/propose', { ...proposalTemplate, lobe_name: lobe });
        run.propose = { status: res.status, decisionId: res.headers.get('x-pentagate-decision-id') };
      } catch (err) {
        run.propose = failed(err);
      }
      try {
        const res = await post('/api/v1/kernel/authorize', action, `pgk_${'A'.repeat(43)}`);
        run.unauthenticated = { status: res.status, code: (await res.json()).error.code };
      } catch (err) {
        run.unauthenticated = failed(err);
      }
      return run as unknown as AgentRun;
    },
    {
      cloudUrl: args.cloudUrl,
      apiKey: args.apiKey,
      action: args.action,
      registrationBody: args.registration,
      proposalTemplate: args.proposal(''),
    },
  );
}

const missing = skipWithoutChromium(t);
t.test('an agent page on another origin calls the cloud', { skip: missing ?? false }, async (t) => {
  const pagePort = await pageServer(t);
  const allowedOrigin = `http://127.0.0.1:${pagePort}`;
  // the same server under another host name is another origin (scheme, host and port: RFC 6454)
  const otherOrigin = `http://localhost:${pagePort}`;
  const withCors = await testCloud(t, { corsOrigins: [allowedOrigin] });
  const withoutCors = await testCloud(t);
  const corsUrl = await withCors.app.listen({ port: 0, host: '127.0.0.1' });
  const plainUrl = await withoutCors.app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await launchChromium(t);
  const page = await browser.newPage();

  const agentOf = async (origin: string, cloudUrl: string, apiKey: string) => {
    await page.goto(`${origin}/`);
    return runAgent(page, {
      cloudUrl,
      apiKey,
      action: ledgerWrite(10),
      registration: registration('browser-agent'),
      proposal: (lobe) => transferCall(lobe, 10),
    });
  };

  await t.test('from the allowed origin every call works', async (t) => {
    const run = await agentOf(allowedOrigin, corsUrl, withCors.a.keys.agent);
    t.same(run.authorize, { status: 'ALLOW' }, 'GovClient.authorize');
    t.same(run.register, { status: 201 });
    t.equal(run.propose.status, 200, JSON.stringify(run.propose));
    t.match(run.propose.decisionId, /\S/, 'the exposed decision id header is readable');
    t.same(run.unauthenticated, { status: 401, code: 'UNAUTHENTICATED' }, 'a 401 is readable');
  });

  await t.test('from another origin the browser blocks every call', async (t) => {
    const run = await agentOf(otherOrigin, corsUrl, withCors.a.keys.agent);
    t.match(run.authorize.error, /^NetworkError/, 'GovClient sees no answer');
    for (const call of [run.register, run.propose, run.unauthenticated]) t.match(call.error, /^TypeError/);
  });

  await t.test('without a CORS origin configured the browser blocks every call', async (t) => {
    const run = await agentOf(allowedOrigin, plainUrl, withoutCors.a.keys.agent);
    t.match(run.authorize.error, /^NetworkError/);
    for (const call of [run.register, run.propose, run.unauthenticated]) t.match(call.error, /^TypeError/);
  });
});
