import { AxeBuilder } from '@axe-core/playwright';
import { expect } from 'chai';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's Chromium, or the one CHROMIUM_PATH names. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with the flags this sandboxed machine needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
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
}

/** Runs axe on the page and fails with the list of violations, if any. */
export async function expectAccessible(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const summary = violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
  if (summary.length > 0) {
    const where = `${page.url()} at ${page.viewportSize()?.width}px`;
    expect.fail(`${where}: ${summary.length} accessibility violations\n  ${summary.join('\n  ')}`);
  }
}
