/**
 * The one way the project's browser tests start a browser: Debian's `chromium` driven by playwright-core
 * (no browser download; CI installs the package). Outside CI a missing browser skips the test with a clear
 * message; in CI it is a failure, so the browser tests can never quietly stop running.
 */
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import type { Test } from 'tap';

export const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests cannot run on this machine, or undefined when they can. */
export function chromiumMissing(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is missing: apt-get install -y chromium`;
}

/**
 * Fails the test in CI when the browser is missing; elsewhere returns the skip reason for the caller's
 * `{ skip }`. Returns undefined when the browser is there.
 */
export function skipWithoutChromium(t: Test): string | undefined {
  const missing = chromiumMissing();
  if (missing && process.env.CI) t.fail(`${missing} (CI installs the Debian chromium package)`);
  return missing;
}

/** A headless Chromium closed at the test's end; it fetches nothing on its own (no updates, no sync). */
export async function launchChromium(t: Test): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  t.teardown(() => browser.close());
  return browser;
}
